package org.bftws.bench.nemesis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The faults of a nemesis run, drawn from a seed: the same seed, length and clock-skew bound give the same
 * schedule. One fault at a time: a fault starts every 10-20 s (later when the one before lasts longer, so that it is
 * healed a few seconds before the next starts), each kind as likely as the others:
 * partitions (the primary alone, two against two, two halves bridged by one replica, the client cut from one
 * replica; 3-12 s), a pause of one replica (1-20 s), a kill of one replica (down 2-10 s, then restarted from its data
 * directory or empty, even odds), and a replica's clock set off (15-20 s, half the time within
 * {@code clockSkewBound}, half beyond it, either way). No fault starts in the first {@value #WARM_UP_MILLIS} ms nor
 * ends in the last {@value #QUIET_END_MILLIS} ms.
 */
public final class Schedule {

    /** The group's replicas (f=1). */
    public static final int REPLICAS = 4;
    static final long WARM_UP_MILLIS = 5_000;
    static final long QUIET_END_MILLIS = 5_000;
    /** How long before the next fault the one before is healed, at least. */
    public static final long HEALED_BEFORE_NEXT_MILLIS = 3_000;

    private final long seed;
    private final List<Fault> faults;

    private Schedule(long seed, List<Fault> faults) {
        this.seed = seed;
        this.faults = List.copyOf(faults);
    }

    /** The schedule of {@code seed} for a run of {@code runMillis} whose group has {@code skewBoundMillis}. */
    public static Schedule draw(long seed, long runMillis, long skewBoundMillis) {
        if (runMillis <= 0) {
            throw new IllegalArgumentException("a run lasts a positive time, not " + runMillis + " ms");
        }
        if (skewBoundMillis <= 0) {
            throw new IllegalArgumentException("clockSkewBound must be positive, not " + skewBoundMillis + " ms");
        }
        Random r = new Random(seed);
        List<Fault> faults = new ArrayList<>();
        long t = WARM_UP_MILLIS;
        while (true) {
            Fault f = fault(r, t, skewBoundMillis);
            if (f.endMillis() > runMillis - QUIET_END_MILLIS) {
                break;
            }
            faults.add(f);
            long gap = between(r, 10_000, 20_000);
            t += Math.max(gap, f.durationMillis() + HEALED_BEFORE_NEXT_MILLIS);
        }
        return new Schedule(seed, faults);
    }

    private static Fault fault(Random r, long start, long bound) {
        Fault.Kind kind = Fault.Kind.values()[r.nextInt(Fault.Kind.values().length)];
        int replica = r.nextInt(REPLICAS);
        List<Integer> order = new ArrayList<>(List.of(0, 1, 2, 3));
        Collections.shuffle(order, r);
        List<Integer> a = List.copyOf(order.subList(0, 2));
        List<Integer> b = List.copyOf(order.subList(2, 4));
        long partition = between(r, 3_000, 12_000);
        return switch (kind) {
            case PRIMARY_ALONE -> new Fault(kind, start, partition, -1, List.of(), List.of(), -1, true, 0);
            case HALVES -> new Fault(kind, start, partition, -1, a, b, -1, true, 0);
            case BRIDGE -> new Fault(kind, start, partition, -1, a, b, b.get(0), true, 0);
            case CLIENT_CUT -> new Fault(kind, start, partition, replica, List.of(), List.of(), -1, true, 0);
            case PAUSE -> new Fault(kind, start, between(r, 1_000, 20_000), replica, List.of(), List.of(), -1, true,
                    0);
            case KILL -> new Fault(kind, start, between(r, 2_000, 10_000), replica, List.of(), List.of(), -1,
                    r.nextBoolean(), 0);
            case CLOCK_SKEW -> {
                boolean beyond = r.nextBoolean();
                long magnitude = beyond ? between(r, 2 * bound, 4 * bound) : between(r, bound / 5, bound * 3 / 5);
                long skew = r.nextBoolean() ? magnitude : -magnitude;
                yield new Fault(kind, start, between(r, 15_000, 20_000), replica, List.of(), List.of(), -1, true,
                        skew);
            }
        };
    }

    private static long between(Random r, long low, long high) {
        return low + (long) (r.nextDouble() * (high - low));
    }

    public long seed() {
        return seed;
    }

    public List<Fault> faults() {
        return faults;
    }
}
