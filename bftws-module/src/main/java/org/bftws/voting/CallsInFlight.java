package org.bftws.voting;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * How many calls to replicated groups one client engine has undecided at once; more wait here, first come first
 * served, until one is decided.
 *
 * <p>Why: a replica holds each request's HTTP exchange until the request is executed, and a request is ordered only
 * once enough replicas have their own copy of it (the {@code mac} profile's claims). With more calls in flight than
 * connections per replica, a call's copy to one replica queued in the connection pool behind exchanges that replica
 * held for other calls, whose copies in turn queued for the replicas this call's copy was waiting on: nothing moved
 * until the replicas' 3 s hold timeout let exchanges go (256 appending clients: 57-97 req/s, every replica nearly idle,
 * against 156 req/s at 64 clients; {@code measure overload}, 2026-11-27). A call admitted here gets a connection to every
 * replica at once, so every replica gets its copy.
 *
 * <p>The bound is half the replicas' default {@code maxHeldExchanges} (64): a replica holds the exchanges of decided
 * calls too until it has executed them, and more than it holds turn into retry-later faults and retransmissions.
 * Measured with 64 and 256 appending clients: 32 calls at once gave 121.9 and 140.7 req/s with 7,574 and 5,383
 * retry-later faults, 64 at once 112.2 and 92.0 req/s with 18,148 and 16,640 (one run each, 2026-11-27).
 */
public final class CallsInFlight {
    public static final int DEFAULT_LIMIT = 32;

    private final Semaphore permits;
    private final int limit;

    public CallsInFlight(int limit) {
        this.limit = limit;
        this.permits = new Semaphore(limit, true);
    }

    public int limit() {
        return limit;
    }

    /** Calls admitted and not yet decided. */
    int inFlight() {
        return limit - permits.availablePermits();
    }

    /**
     * Admits one call, waiting at most {@code waitMillis}; false when none was decided meanwhile (the caller fails
     * the call with that reason rather than waiting for ever).
     */
    public boolean admit(long waitMillis) throws InterruptedException {
        return permits.tryAcquire(waitMillis, TimeUnit.MILLISECONDS);
    }

    /** The admitted call is decided (or failed): the next one may go. Its slower replicas may still be answering. */
    public void decided() {
        permits.release();
    }
}
