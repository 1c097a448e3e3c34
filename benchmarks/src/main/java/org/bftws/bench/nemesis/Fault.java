package org.bftws.bench.nemesis;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One fault of a {@link Schedule}: what it is, when it starts (ms after the clients start) and how long it lasts
 * before it is healed. {@code replica} is the replica it strikes (-1 for the primary of the moment it starts, which
 * only the run knows), {@code halves} the two sides of a partition of the replicas, {@code bridge} the replica that
 * sees both halves, {@code keepData} whether a killed replica restarts from its data directory, {@code skewMillis}
 * how far a replica's clock is set off.
 */
public record Fault(Kind kind, long startMillis, long durationMillis, int replica, List<Integer> halfA,
                    List<Integer> halfB, int bridge, boolean keepData, long skewMillis) {

    /** The kinds of fault, with how the run's last line counts them. */
    public enum Kind {
        /** The primary of the moment cut from every other replica (the client still reaches it). */
        PRIMARY_ALONE(Count.PARTITION),
        /** Two replicas against two: no side has a quorum; the group stops until it is healed. */
        HALVES(Count.PARTITION),
        /** Two halves of two replicas, and one replica of the second half that sees both halves. */
        BRIDGE(Count.PARTITION),
        /** The client cut from one replica (the replicas all reach each other). */
        CLIENT_CUT(Count.PARTITION),
        /** One replica stopped (SIGSTOP) and let go on (SIGCONT). */
        PAUSE(Count.PAUSE),
        /** One replica killed (SIGKILL) and started again, from its data directory or empty. */
        KILL(Count.RESTART),
        /** One replica restarted with its clock set off (within or beyond clockSkewBound), then without. */
        CLOCK_SKEW(Count.CLOCK_SKEW);

        private final Count count;

        Kind(Count count) {
            this.count = count;
        }

        public Count count() {
            return count;
        }
    }

    /** The four figures of the run's last line. */
    public enum Count { PARTITION, PAUSE, RESTART, CLOCK_SKEW }

    public Fault {
        halfA = List.copyOf(halfA);
        halfB = List.copyOf(halfB);
    }

    public long endMillis() {
        return startMillis + durationMillis;
    }

    /**
     * The replicas this fault leaves without a quorum of their own (cut from, or unable to answer, more than f of
     * the others) while it lasts, given the primary for {@link Kind#PRIMARY_ALONE}: at most one except for
     * {@link Kind#HALVES}, which by design leaves every replica without one.
     */
    public Set<Integer> faulty(int primary) {
        return switch (kind) {
            case PRIMARY_ALONE -> Set.of(primary);
            case HALVES -> Set.of(0, 1, 2, 3);
            // the bridge's partner sees only the bridge; the other half and the bridge make a quorum
            case BRIDGE -> Set.of(halfB.stream().filter(r -> r != bridge).findFirst().orElseThrow());
            case CLIENT_CUT -> Set.of();
            case PAUSE, KILL, CLOCK_SKEW -> Set.of(replica);
        };
    }

    /** One line: when, what, whom. */
    public String describe() {
        String what = switch (kind) {
            case PRIMARY_ALONE -> "partition: the primary alone";
            case HALVES -> "partition: replicas " + halfA + " against " + halfB;
            case BRIDGE -> "partition: replicas " + halfA + " against " + halfB + ", replica" + bridge
                    + " sees both";
            case CLIENT_CUT -> "partition: the client cut from replica" + replica;
            case PAUSE -> "pause replica" + replica + " (SIGSTOP)";
            case KILL -> "kill replica" + replica + " (SIGKILL), restart " + (keepData ? "from its data directory"
                    : "empty");
            case CLOCK_SKEW -> "clock of replica" + replica + " off by " + skewMillis + " ms";
        };
        return String.format(Locale.ROOT, "at %.1f s for %.1f s: %s", startMillis / 1000.0, durationMillis / 1000.0,
                what);
    }
}
