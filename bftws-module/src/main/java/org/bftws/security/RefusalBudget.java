package org.bftws.security;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * How many refusals a node answers per remote address: a token bucket per address that refills at {@code perSecond}
 * and holds at most twice that (a burst), so one sender that keeps sending refused messages gets at most that many
 * answers a second; the rest are closed without an answer (replicas.xml {@code limits/@refusalsPerSecondPerAddress}).
 * The buckets live in a map of at most {@code maxAddresses} entries, the least recently refused address forgotten
 * first (forgotten, it starts again with a full bucket), so memory stays bounded however many addresses send.
 * The JDK only; thread-safe (one short lock per refusal).
 */
public final class RefusalBudget {
    /** Addresses remembered by default, as many as {@link RefusalLog} remembers (peer, reason) pairs, times four. */
    public static final int MAX_ADDRESSES = 4 * RefusalLog.MAX_PAIRS;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final double tokensPerNano;
    private final double burst;
    private final LongSupplier nanoClock;
    private final Map<String, Bucket> buckets;

    /**
     * @param perSecond    answers per address and second (at least 1); bursts of twice that
     * @param maxAddresses addresses remembered at most
     * @param nanoClock    a monotonic clock in nanoseconds (System::nanoTime)
     */
    public RefusalBudget(int perSecond, int maxAddresses, LongSupplier nanoClock) {
        if (perSecond < 1 || maxAddresses < 1) {
            throw new IllegalArgumentException("a refusal budget needs a positive rate and room for an address: "
                    + perSecond + "/s, " + maxAddresses + " addresses");
        }
        this.tokensPerNano = (double) perSecond / NANOS_PER_SECOND;
        this.burst = 2.0 * perSecond;
        this.nanoClock = nanoClock;
        this.buckets = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
                return size() > maxAddresses;
            }
        };
    }

    public RefusalBudget(int perSecond) {
        this(perSecond, MAX_ADDRESSES, System::nanoTime);
    }

    /** Whether a refusal of a message from {@code address} may still be answered now (and takes one answer if so). */
    public boolean tryAnswer(String address) {
        long now = nanoClock.getAsLong();
        synchronized (buckets) {
            Bucket b = buckets.get(address);
            if (b == null) {
                b = new Bucket(burst, now);
                buckets.put(address, b);
            } else {
                b.tokens = Math.min(burst, b.tokens + (now - b.refilledAt) * tokensPerNano);
                b.refilledAt = now;
            }
            if (b.tokens < 1) {
                return false;
            }
            b.tokens -= 1;
            return true;
        }
    }

    /** How many addresses are remembered now (at most the bound given). */
    int addresses() {
        synchronized (buckets) {
            return buckets.size();
        }
    }

    private static final class Bucket {
        double tokens;
        long refilledAt;

        Bucket(double tokens, long refilledAt) {
            this.tokens = tokens;
            this.refilledAt = refilledAt;
        }
    }
}
