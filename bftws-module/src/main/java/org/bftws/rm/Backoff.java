package org.bftws.rm;

import java.time.Duration;

/**
 * Retransmission schedule: the first retransmission after {@code initial}, each next one after twice the previous
 * delay (capped at {@code cap}), and no more than {@code maxRetransmissions} of them.
 */
public record Backoff(Duration initial, Duration cap, int maxRetransmissions) {
    /**
     * Options property: a Backoff for this call (and the CreateSequence it may need) instead of the target's.
     * PBFT's replica-to-replica channels use a short one: the protocol resends what matters itself, and a channel
     * that retransmitted to a crashed peer for the group's whole schedule (minutes) would stay blocked after the
     * peer came back.
     */
    public static final String PROPERTY = "bftws.backoff";


    public Backoff {
        if (initial.isNegative() || initial.isZero()) {
            throw new IllegalArgumentException("retransmission interval must be positive: " + initial);
        }
        if (maxRetransmissions < 0) {
            throw new IllegalArgumentException("retransmission limit must not be negative: " + maxRetransmissions);
        }
    }

    public static Backoff of(Duration initial, int maxRetransmissions) {
        return new Backoff(initial, initial.multipliedBy(64), maxRetransmissions);
    }

    /** Delay before retransmission number {@code k} (1-based): initial * 2^(k-1), at most {@code cap}. */
    public Duration delayBefore(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("retransmissions are numbered from 1, got " + k);
        }
        Duration d = initial;
        for (int i = 1; i < k && d.compareTo(cap) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(cap) > 0 ? cap : d;
    }

    /** True when retransmission number {@code k} is still allowed. */
    public boolean allows(int k) {
        return k <= maxRetransmissions;
    }
}
