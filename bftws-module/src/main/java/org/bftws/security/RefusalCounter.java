package org.bftws.security;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts and logs refused messages per reason, so an operator sees attacks and misconfigurations; on a node, also how
 * its refusals were answered: with the constant unsigned fault ({@link #ANSWERED_UNSIGNED}), or, over the per-address
 * rate, not at all ({@link #CLOSED_OVER_RATE}).
 */
public final class RefusalCounter {
    /** Name of the counter of refusals answered with an unsigned fault (constant, or Axis2's before authentication). */
    public static final String ANSWERED_UNSIGNED = "refusals answered unsigned";
    /** Name of the counter of refusals over their address's rate: the connection was closed without an answer. */
    public static final String CLOSED_OVER_RATE = "refusals over the address rate, closed unanswered";
    private static final Logger LOG = LoggerFactory.getLogger(RefusalCounter.class);
    private final Map<RefusalReason, AtomicLong> counts = new EnumMap<>(RefusalReason.class);
    private final AtomicLong answeredUnsigned = new AtomicLong();
    private final AtomicLong closedOverRate = new AtomicLong();

    public RefusalCounter() {
        for (RefusalReason r : RefusalReason.values()) {
            counts.put(r, new AtomicLong());
        }
    }

    /** Counts one refusal without logging it (the caller logs it, e.g. in the node's {@link RefusalLog}). */
    public long record(RefusalReason reason) {
        return counts.get(reason).incrementAndGet();
    }

    /** Records one refusal; {@code where} says which message (e.g. action and sender address) for the log. */
    public void refused(SecurityRefusal refusal, String where) {
        long n = record(refusal.reason());
        LOG.warn(refusal.getMessage() + " [" + where + "; " + refusal.reason() + " refusals so far: " + n + "]");
    }

    public long count(RefusalReason reason) {
        return counts.get(reason).get();
    }

    /** The number of refusals counted, all reasons together (how they were answered is not a refusal of its own). */
    public long total() {
        return counts.values().stream().mapToLong(AtomicLong::get).sum();
    }

    /** Counts one refusal answered with an unsigned fault; returns the count now. */
    public long answeredUnsigned() {
        return answeredUnsigned.incrementAndGet();
    }

    /** Counts one refusal over its address's rate, whose connection was closed without an answer. */
    public long closedOverRate() {
        return closedOverRate.incrementAndGet();
    }

    public long answeredUnsignedCount() {
        return answeredUnsigned.get();
    }

    public long closedOverRateCount() {
        return closedOverRate.get();
    }

    /**
     * Every counter by name, as the status page and the MBeans show them: each reason's (by its enum name), then
     * {@link #ANSWERED_UNSIGNED} and {@link #CLOSED_OVER_RATE}.
     */
    public Map<String, Long> asMap() {
        Map<String, Long> m = new TreeMap<>();
        for (RefusalReason r : RefusalReason.values()) {
            m.put(r.name(), count(r));
        }
        m.put(ANSWERED_UNSIGNED, answeredUnsigned.get());
        m.put(CLOSED_OVER_RATE, closedOverRate.get());
        return m;
    }
}
