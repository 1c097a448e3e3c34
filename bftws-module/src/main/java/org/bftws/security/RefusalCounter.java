package org.bftws.security;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Counts and logs refused messages per reason, so an operator sees attacks and misconfigurations. */
public final class RefusalCounter {
    private static final Logger LOG = LoggerFactory.getLogger(RefusalCounter.class);
    private final Map<RefusalReason, AtomicLong> counts = new EnumMap<>(RefusalReason.class);

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

    public long total() {
        return counts.values().stream().mapToLong(AtomicLong::get).sum();
    }
}
