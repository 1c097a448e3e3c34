package org.bftws.bench.nemesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ScheduleTest {

    private static final long BOUND = 5_000;
    private static final long HALF_HOUR = 30 * 60_000;

    @Test
    void theSameSeedGivesTheSameScheduleAndAnotherSeedAnother() {
        assertEquals(Schedule.draw(1, HALF_HOUR, BOUND).faults(), Schedule.draw(1, HALF_HOUR, BOUND).faults());
        assertNotEquals(Schedule.draw(1, HALF_HOUR, BOUND).faults(), Schedule.draw(2, HALF_HOUR, BOUND).faults());
    }

    @Test
    void oneFaultAtATimeEveryTenToTwentySecondsHealedBeforeTheNextAndWithinTheRun() {
        for (long seed = 1; seed <= 50; seed++) {
            List<Fault> faults = Schedule.draw(seed, HALF_HOUR, BOUND).faults();
            assertTrue(faults.size() >= 80, "seed " + seed + ": " + faults.size() + " faults in 30 min");
            assertTrue(faults.get(0).startMillis() >= Schedule.WARM_UP_MILLIS);
            for (int i = 0; i < faults.size(); i++) {
                Fault f = faults.get(i);
                assertTrue(f.endMillis() <= HALF_HOUR - Schedule.QUIET_END_MILLIS, f.describe());
                if (i > 0) {
                    Fault before = faults.get(i - 1);
                    long gap = f.startMillis() - before.startMillis();
                    assertTrue(gap >= 10_000, "seed " + seed + ": " + before.describe() + " then " + f.describe());
                    assertTrue(gap <= Math.max(20_000, before.durationMillis() + Schedule.HEALED_BEFORE_NEXT_MILLIS),
                            "seed " + seed + ": " + before.describe() + " then " + f.describe());
                    assertTrue(before.endMillis() + Schedule.HEALED_BEFORE_NEXT_MILLIS <= f.startMillis(),
                            "seed " + seed + ": " + before.describe() + " overlaps " + f.describe());
                }
            }
        }
    }

    @Test
    void atMostOneReplicaIsFaultyAtATimeExceptInTheTwoAgainstTwoPartition() {
        for (long seed = 1; seed <= 50; seed++) {
            for (Fault f : Schedule.draw(seed, HALF_HOUR, BOUND).faults()) {
                for (int primary = 0; primary < Schedule.REPLICAS; primary++) {
                    Set<Integer> faulty = f.faulty(primary);
                    if (f.kind() == Fault.Kind.HALVES) {
                        assertEquals(Set.of(0, 1, 2, 3), faulty);
                    } else {
                        assertTrue(faulty.size() <= 1, f.describe() + ": " + faulty);
                    }
                }
            }
        }
    }

    @Test
    void aHalfHourHasEveryKindOfFaultAndClockSkewWithinAndBeyondTheBound() {
        List<Fault> faults = Schedule.draw(1, HALF_HOUR, BOUND).faults();
        Set<Fault.Kind> kinds = EnumSet.noneOf(Fault.Kind.class);
        boolean within = false;
        boolean beyond = false;
        boolean restartEmpty = false;
        boolean restartFromData = false;
        for (Fault f : faults) {
            kinds.add(f.kind());
            if (f.kind() == Fault.Kind.CLOCK_SKEW) {
                within |= Math.abs(f.skewMillis()) < BOUND;
                beyond |= Math.abs(f.skewMillis()) > BOUND;
            }
            if (f.kind() == Fault.Kind.KILL) {
                restartEmpty |= !f.keepData();
                restartFromData |= f.keepData();
            }
            if (f.kind() == Fault.Kind.PAUSE) {
                assertTrue(f.durationMillis() >= 1_000 && f.durationMillis() <= 20_000, f.describe());
            }
        }
        assertEquals(EnumSet.allOf(Fault.Kind.class), kinds);
        assertTrue(within && beyond && restartEmpty && restartFromData);
    }

    @Test
    void theTwoHalvesArePartitionsOfTheGroupAndTheBridgeIsInOne() {
        for (Fault f : Schedule.draw(3, HALF_HOUR, BOUND).faults()) {
            if (f.kind() == Fault.Kind.HALVES || f.kind() == Fault.Kind.BRIDGE) {
                Set<Integer> all = new java.util.HashSet<>(f.halfA());
                all.addAll(f.halfB());
                assertEquals(Set.of(0, 1, 2, 3), all, f.describe());
                assertEquals(2, f.halfA().size(), f.describe());
            }
            if (f.kind() == Fault.Kind.BRIDGE) {
                assertTrue(f.halfB().contains(f.bridge()), f.describe());
                int partner = f.halfB().get(0) == f.bridge() ? f.halfB().get(1) : f.halfB().get(0);
                assertEquals(Set.of(partner), f.faulty(0), "cut from the other half, it sees the bridge alone");
            }
        }
    }

    @Test
    void aRunWithoutRoomForAFaultHasNoneAndBadLengthsAreRefused() {
        assertEquals(List.of(), Schedule.draw(1, 10_000, BOUND).faults());
        assertThrows(IllegalArgumentException.class, () -> Schedule.draw(1, 0, BOUND));
        assertThrows(IllegalArgumentException.class, () -> Schedule.draw(1, HALF_HOUR, 0));
    }
}
