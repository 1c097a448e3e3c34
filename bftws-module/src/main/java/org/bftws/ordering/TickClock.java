package org.bftws.ordering;

/**
 * Turns the monotonic clock into the core's ticks, without charging the node's own stalls to the primary. The core
 * suspects the primary when a request waits a view-change timeout in ticks without progress; if this node itself
 * was not running for a while (a garbage-collection pause, a starved CPU, the tick thread waiting for the core's
 * lock), delivering every missed tick at once would fire that timeout before the node has even read the prepares
 * and commits that arrived meanwhile, and start a view change against a primary that did nothing wrong: on an
 * overloaded host every replica does this in turn, and view changes follow each other. So a wake-up delivers at most
 * {@link #MAX_CATCH_UP} ticks; the rest are skipped and counted. In normal running (wake-ups about a tick apart)
 * ticks follow the wall clock exactly, so configured timeouts keep their meaning. Not thread-safe: the ticker's one
 * thread owns it.
 */
final class TickClock {
    /** The most ticks one wake-up delivers: a delay of up to this many ticks is ordinary scheduling jitter. */
    static final int MAX_CATCH_UP = 20;

    private final long tickNanos;
    private long last;
    private long skipped;

    TickClock(long tickNanos, long startNanos) {
        if (tickNanos <= 0) {
            throw new IllegalArgumentException("a tick must last some time");
        }
        this.tickNanos = tickNanos;
        this.last = startNanos;
    }

    /** The number of ticks to deliver at {@code nowNanos} (a {@link System#nanoTime()} reading). */
    int elapse(long nowNanos) {
        long elapsed = (nowNanos - last) / tickNanos;
        if (elapsed <= 0) {
            return 0;
        }
        last += elapsed * tickNanos;
        if (elapsed > MAX_CATCH_UP) {
            skipped += elapsed - MAX_CATCH_UP;
            return MAX_CATCH_UP;
        }
        return (int) elapsed;
    }

    /** Ticks not delivered because the node was stalled: their sum is how long it did not run, in ticks. */
    long skipped() {
        return skipped;
    }
}
