package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The primary's pacing by its clients: whom it waits for, and how long at most. */
class BatchPacingTest {

    /** A pacing that has seen an ordering of {@code ordering} ticks and {@code client} come back {@code back} after. */
    private static BatchPacing paced(int waitTicks, long ordering, String client, long back) {
        BatchPacing p = new BatchPacing(waitTicks);
        p.ordered(ordering);
        p.committed(client, 0);
        p.arrived(client, back);
        return p;
    }

    /** Orderings of 10 ticks; client "a" came back 5 ticks after its commit. */
    private static BatchPacing withQuickClientA(int waitTicks) {
        return paced(waitTicks, 10, "a", 5);
    }

    @Test
    void thePrimaryWaitsForAQuickClientWhoseRequestJustCommitted() {
        BatchPacing p = withQuickClientA(50);
        p.committed("a", 200);
        assertTrue(p.holdBack(201));
        p.arrived("a", 203);
        assertFalse(p.holdBack(203), "once it is back, nothing is awaited");
    }

    @Test
    void aClientSeenForTheFirstTimeIsNotWaitedFor() {
        BatchPacing p = new BatchPacing(50);
        p.ordered(10);
        p.committed("new", 200);
        assertFalse(p.holdBack(201));
    }

    @Test
    void aClientThatThinksLongerThanTwoOrderingsIsNeverWaitedFor() {
        BatchPacing p = paced(50, 10, "slow", 25); // back after 25 ticks: more than twice an ordering of 10
        p.committed("slow", 200);
        assertFalse(p.holdBack(201));
    }

    @Test
    void aQuickClientIsAwaitedNoLongerThanTwiceTheOrderingTimeAfterItsCommit() {
        BatchPacing p = withQuickClientA(50);
        p.committed("a", 200);
        assertTrue(p.holdBack(219));
        assertFalse(p.holdBack(220), "20 ticks (twice the ordering) after its commit it is no longer expected");
    }

    @Test
    void noWaitLastsLongerThanTheBoundFromWhenThePrimaryCouldFirstPropose() {
        BatchPacing p = paced(8, 30, "a", 2);
        p.committed("c", 3);
        p.arrived("c", 5);
        p.committed("a", 100);
        assertTrue(p.holdBack(100));
        p.committed("c", 105); // another quick client, expected until 113
        assertTrue(p.holdBack(107));
        assertFalse(p.holdBack(108), "eight ticks after the primary could first have proposed");
    }

    @Test
    void aClientThatWentAwayIsForgottenAfterOneMissedReturn() {
        BatchPacing p = withQuickClientA(50);
        p.committed("a", 200);
        assertTrue(p.holdBack(201));
        p.proposed();
        p.committed("b", 260); // a's commit at 200 is 60 ticks old: past the bound, so a is no longer quick
        assertEquals(0, p.clientsWithKnownPace());
        assertFalse(p.holdBack(261));
    }

    @Test
    void eachProposalStartsTheBoundAfresh() {
        BatchPacing p = withQuickClientA(8);
        p.committed("a", 200);
        assertTrue(p.holdBack(200));
        p.arrived("a", 204);
        p.proposed();
        p.committed("a", 300);
        assertTrue(p.holdBack(305), "a new wait, though the last one began over eight ticks ago");
    }

    @Test
    void withoutAWaitBoundNothingIsEverHeldBack() {
        BatchPacing p = paced(0, 10, "a", 1);
        p.committed("a", 20);
        assertFalse(p.holdBack(21));
        assertEquals(0, p.clientsWithKnownPace());
    }

    @Test
    void theOrderingTimeFollowsRecentBatchesRoundedUp() {
        BatchPacing p = new BatchPacing(50);
        p.ordered(3);
        assertEquals(3, p.orderingTicks(), "the first ordering is taken as it is");
        p.ordered(1);
        assertEquals(3, p.orderingTicks(), "(3 x 3 + 1) / 4 rounded up");
        for (int i = 0; i < 20; i++) {
            p.ordered(40);
        }
        assertEquals(40, p.orderingTicks());
    }
}
