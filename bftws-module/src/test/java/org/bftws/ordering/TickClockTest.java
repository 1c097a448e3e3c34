package org.bftws.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TickClockTest {
    private static final long MS = 1_000_000L;

    @Test
    void ticksFollowTheWallClockWhenTheNodeRunsNormally() {
        TickClock clock = new TickClock(MS, 0);
        int delivered = 0;
        for (long t = 0; t <= 1000 * MS; t += MS + MS / 3) {
            delivered += clock.elapse(t);
        }
        assertEquals(999, delivered, 1.0);
        assertEquals(0, clock.skipped());
    }

    @Test
    void aWakeUpEarlierThanATickDeliversNothingAndLosesNothing() {
        TickClock clock = new TickClock(MS, 0);
        assertEquals(0, clock.elapse(MS / 2));
        assertEquals(1, clock.elapse(MS + MS / 10));
        assertEquals(1, clock.elapse(2 * MS));
    }

    @Test
    void aStallOfTheNodeItselfIsNotChargedToThePrimary() {
        TickClock clock = new TickClock(MS, 0);
        assertEquals(TickClock.MAX_CATCH_UP, clock.elapse(1500 * MS), "a 1.5 s pause counts as a short delay");
        assertEquals(1500 - TickClock.MAX_CATCH_UP, clock.skipped());
        assertEquals(1, clock.elapse(1501 * MS), "after the pause, ticks follow the clock again");
    }

    @Test
    void schedulingJitterUpToTheCatchUpBoundIsDeliveredInFull() {
        TickClock clock = new TickClock(MS, 0);
        assertEquals(TickClock.MAX_CATCH_UP, clock.elapse(TickClock.MAX_CATCH_UP * MS));
        assertEquals(0, clock.skipped());
    }
}
