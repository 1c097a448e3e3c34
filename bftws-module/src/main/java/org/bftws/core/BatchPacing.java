package org.bftws.core;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Whether the primary holds a batch back for clients that are about to send again: batching at the clients' pace.
 *
 * <p>Why: with one batch in flight and clients that send their next request when the last one is answered (the
 * paper's echo clients, and most SOAP callers), proposing whatever has arrived splits the clients into two groups
 * that take turns: while one group's batch is ordered, the other group's requests gather. A batch then holds about
 * half of the clients, and every batch costs each replica the same dozen authenticated exchanges whatever its size.
 * A client whose request was just committed usually sends its next one a little later; waiting for it merges the
 * groups into one batch.
 *
 * <p>When waiting pays: a client that comes back within about the time a batch takes to order would otherwise ride in
 * the next batch, about one ordering later, so waiting for it delays the others by about what its own request gains,
 * and every replica saves a batch's exchanges. So each node learns, per client, how long it took from the commit of
 * its request here to the arrival of its next one (its return time), and how long ordering takes here (pre-prepare
 * to commit, smoothed). A client is <em>quick</em> when its last return time was within twice that ordering time
 * (measured: once missed about a third of the merges at 8 clients) and within {@code waitTicks}. When the primary
 * could propose less than a full batch, it waits while a quick client's request committed less than that bound ago
 * and the client has not sent again, but never longer than {@code waitTicks} from when it could first have
 * proposed. A client that
 * sends now and then, or thinks longer than an ordering takes, is never waited for; one that went away is waited for
 * once at most. With {@code waitTicks} 0 nothing is held back. Every node keeps the same account so that a new
 * primary paces at once; it is timing only and never changes what a correct node accepts.
 */
final class BatchPacing {

    private final int waitTicks;
    /** Clients whose request committed less than waitTicks ago and that have not sent again since, in commit order. */
    private final LinkedHashMap<String, Long> committedAt = new LinkedHashMap<>();
    /** The last return time of clients that came back within waitTicks of a commit. */
    private final Map<String, Long> returnTicks = new HashMap<>();
    /** Pre-prepare to commit at this node, smoothed over the last few batches (ticks; -1 before the first). */
    private long orderingTicks = -1;
    /** The tick from which the primary could have proposed what is eligible now; -1 when it just proposed. */
    private long readySince = -1;

    BatchPacing(int waitTicks) {
        if (waitTicks < 0) {
            throw new IllegalArgumentException("a wait for clients cannot be negative: " + waitTicks);
        }
        this.waitTicks = waitTicks;
    }

    /** A batch committed here {@code ticks} after this node had its pre-prepare. */
    void ordered(long ticks) {
        long t = Math.max(ticks, 0);
        // rounded up, so that orderings of a few ticks do not smooth away to nothing
        orderingTicks = orderingTicks < 0 ? t : (3 * orderingTicks + t + 3) / 4;
    }

    /** A request of {@code client} committed here at {@code now}. */
    void committed(String client, long now) {
        if (waitTicks == 0) {
            return;
        }
        expire(now);
        committedAt.remove(client); // re-inserted last: the map stays in commit order
        committedAt.put(client, now);
    }

    /** A new request of {@code client} arrived here at {@code now}. */
    void arrived(String client, long now) {
        if (waitTicks == 0) {
            return;
        }
        expire(now);
        Long since = committedAt.remove(client);
        if (since != null) {
            returnTicks.put(client, now - since);
        }
    }

    /** Whether the primary, which could propose less than a full batch now, should wait for quick clients instead. */
    boolean holdBack(long now) {
        if (waitTicks == 0) {
            return false;
        }
        if (readySince < 0) {
            readySince = now;
        }
        if (now - readySince >= waitTicks) {
            return false;
        }
        expire(now);
        long worthWaiting = Math.min(2 * orderingTicks, waitTicks);
        for (Map.Entry<String, Long> c : committedAt.entrySet()) {
            Long back = returnTicks.get(c.getKey());
            if (back != null && back <= worthWaiting && now - c.getValue() < worthWaiting) {
                return true;
            }
        }
        return false;
    }

    /** The primary proposed a batch: the next wait starts when it can propose again. */
    void proposed() {
        readySince = -1;
    }

    /** Clients not back within waitTicks of their commit are no longer awaited, and their return time is forgotten. */
    private void expire(long now) {
        Iterator<Map.Entry<String, Long>> oldestFirst = committedAt.entrySet().iterator();
        while (oldestFirst.hasNext()) {
            Map.Entry<String, Long> e = oldestFirst.next();
            if (now - e.getValue() < waitTicks) {
                return;
            }
            returnTicks.remove(e.getKey());
            oldestFirst.remove();
        }
    }

    /** Clients whose last return time is known (they came back within waitTicks). */
    int clientsWithKnownPace() {
        return returnTicks.size();
    }

    /** The smoothed ordering time in ticks (-1 before the first commit). */
    long orderingTicks() {
        return orderingTicks;
    }
}
