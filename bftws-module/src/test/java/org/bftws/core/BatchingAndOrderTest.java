package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Batching, the in-flight bound, watermarks, and order within a client's sequence. */
class BatchingAndOrderTest {

    private static long prePreparesFromPrimary(TestCluster c) {
        return c.inFlight.stream().filter(f -> f.message() instanceof PrePrepare && f.to() == 1).count();
    }

    @Test
    void aBatchClosesWhenItReachesItsMaximumSize() {
        TestCluster c = new TestCluster(Membership.configurationI(1), new ReplicaOptions(4, 8, 3, 50, 1, 500, 100, 10, 8));
        c.send(TestCluster.request("a", 1), 0);
        c.send(TestCluster.request("b", 1), 0);
        assertEquals(0, prePreparesFromPrimary(c), "two requests wait for a third or for the delay");
        c.send(TestCluster.request("c", 1), 0);
        assertEquals(1, prePreparesFromPrimary(c));
        PrePrepare pp = (PrePrepare) c.inFlight.get(0).message();
        assertEquals(3, pp.batch().size());
    }

    @Test
    void aBatchClosesAfterItsMaximumDelayEvenIfNotFull() {
        TestCluster c = new TestCluster(Membership.configurationI(1), new ReplicaOptions(4, 8, 3, 5, 1, 500, 100, 10, 8));
        c.send(TestCluster.request("a", 1), 0);
        for (int t = 0; t < 4; t++) {
            c.tickNode(0);
        }
        assertEquals(0, prePreparesFromPrimary(c), "four ticks are less than the five-tick delay");
        c.tickNode(0);
        assertEquals(1, prePreparesFromPrimary(c));
        c.deliverAll();
        c.tickAndDeliver(2); // the request reached the primary only: the backups fetch it after their grace
        assertEquals(List.of(new RequestId("a", 1)), c.executedIds(1));
    }

    @Test
    void thePrimaryKeepsNoMoreBatchesInFlightThanTheBound() {
        TestCluster c = new TestCluster(Membership.configurationI(1), new ReplicaOptions(4, 8, 1, 0, 2, 500, 100, 10, 8));
        for (int n = 1; n <= 5; n++) {
            c.send(TestCluster.request("k" + n, 1), 0);
        }
        assertEquals(2, prePreparesFromPrimary(c), "two batches in flight, three requests wait");
        c.deliverAll();
        c.tickAndDeliver(20); // the requests reached the primary only: the backups fetch them after their grace
        assertEquals(5, c.executedIds(1).size(), "commits free the window and the rest follow");
    }

    /** Every node's clock moves {@code ticks} ticks with the messages held, then everything in flight is delivered. */
    private static void orderTaking(TestCluster c, int ticks) {
        for (int t = 0; t < ticks; t++) {
            for (int i = 0; i < c.nodes.length; i++) {
                c.tickNode(i);
            }
        }
        c.deliverAll();
    }

    private static List<PrePrepare> prePreparesSent(TestCluster c) {
        return c.inFlight.stream().filter(f -> f.message() instanceof PrePrepare && f.to() == 1)
                .map(f -> (PrePrepare) f.message()).toList();
    }

    /**
     * Two closed-loop clients, one batch in flight, ordering takes 3 ticks: a and b take turns in batches of one
     * until the primary has seen each come back at once after its commit; then it holds b's request for a's next.
     * Returns the pre-prepares the primary sent from a2's commit on.
     */
    private static List<PrePrepare> twoClientsTakingTurns(int clientWaitTicks, boolean aComesBack) {
        TestCluster c = new TestCluster(Membership.configurationI(1),
                new ReplicaOptions(4, 8, 8, 0, 1, 500, 100, 10, 8, clientWaitTicks));
        c.send(TestCluster.request("a", 1));
        c.send(TestCluster.request("b", 1)); // waits: one batch in flight
        orderTaking(c, 3); // a1 commits; b1 is proposed
        c.send(TestCluster.request("a", 2)); // a is back at once
        orderTaking(c, 3); // b1 commits; a2 is proposed
        c.send(TestCluster.request("b", 2)); // b is back at once
        orderTaking(c, 3); // a2 commits; now b2 is eligible while a, a quick client, is about to send again
        if (aComesBack) {
            c.send(TestCluster.request("a", 3));
        } else {
            for (int t = 0; t < 6; t++) {
                c.tickNode(0);
            }
        }
        return prePreparesSent(c); // since a2 committed
    }

    @Test
    void thePrimaryHoldsABatchForAClientThatUsuallySendsAgainWithinAnOrdering() {
        List<PrePrepare> next = twoClientsTakingTurns(20, true);
        assertEquals(1, next.size());
        assertEquals(List.of(new RequestId("b", 2), new RequestId("a", 3)),
                next.get(0).batch().requests().stream().map(RequestRef::id).toList(), "b2 waited for a3: one batch");
    }

    @Test
    void withoutPacingTheClientsKeepTakingTurns() {
        List<PrePrepare> next = twoClientsTakingTurns(0, true);
        assertEquals(1, next.size());
        assertEquals(List.of(new RequestId("a", 3)), next.get(0).batch().requests().stream().map(RequestRef::id).toList(),
                "b2 was proposed alone as soon as a2 committed (and ordered while the messages were delivered)");
    }

    @Test
    void aHeldBatchGoesAloneWhenTheAwaitedClientDoesNotComeBackWithinTwoOrderings() {
        List<PrePrepare> next = twoClientsTakingTurns(20, false);
        assertEquals(1, next.size(), "proposed within six ticks (twice the ordering time) of a2's commit");
        assertEquals(List.of(new RequestId("b", 2)), next.get(0).batch().requests().stream().map(RequestRef::id).toList());
    }

    @Test
    void messagesBeyondTheHighWatermarkAreDropped() {
        TestCluster c = TestCluster.configurationI();
        c.inject(1, new Prepare(0, 9, Digest.of(new byte[] {1}), 2));
        assertTrue(c.droppedSomething(1, "outside the watermarks"));
    }

    @Test
    void thePrimaryProposesNothingBeyondTheHighWatermarkUntilACheckpointIsStable() {
        // K = 4, L = 8: nine single-request batches; the ninth waits for the checkpoint at 4.
        TestCluster c = new TestCluster(Membership.configurationI(1), new ReplicaOptions(4, 8, 1, 0, 16, 500, 100, 10, 16));
        for (int n = 1; n <= 9; n++) {
            c.send(TestCluster.request("w" + n, 1), 0);
        }
        assertEquals(8, prePreparesFromPrimary(c));
        c.deliverAll();
        c.tickAndDeliver(40); // the requests reached the primary only: the backups fetch them after their grace
        assertEquals(9, c.executedIds(1).size());
        assertEquals(8, c.nodes[1].stableCheckpoint());
    }

    @Test
    void aClientsRequestWaitsForItsPredecessorInTheSequence() {
        TestCluster c = TestCluster.configurationI();
        Request second = TestCluster.request("c", 2);
        c.send(second);
        c.deliverAll();
        assertTrue(c.executedIds(0).isEmpty(), "number 2 is not eligible before number 1");
        Request first = TestCluster.request("c", 1);
        c.send(first);
        c.deliverAll();
        assertEquals(List.of(first.id(), second.id()), c.executedIds(2));
    }

    @Test
    void aPrimaryThatOrdersAClientsRequestsOutOfOrderCannotMakeThemExecuteOutOfOrder() {
        TestCluster c = TestCluster.configurationI();
        Request one = TestCluster.request("c", 1);
        Request two = TestCluster.request("c", 2);
        c.send(one, 1, 2, 3);
        c.send(two, 1, 2, 3);
        c.inject(1, new PrePrepare(0, 1, new Batch(List.of(two.ref())), 0));
        c.inject(2, new PrePrepare(0, 1, new Batch(List.of(two.ref())), 0));
        c.inject(3, new PrePrepare(0, 1, new Batch(List.of(two.ref())), 0));
        c.inject(1, new PrePrepare(0, 2, new Batch(List.of(one.ref())), 0));
        c.inject(2, new PrePrepare(0, 2, new Batch(List.of(one.ref())), 0));
        c.inject(3, new PrePrepare(0, 2, new Batch(List.of(one.ref())), 0));
        c.deliverAll(f -> f.to() != 0);
        for (int i = 1; i < 4; i++) {
            assertEquals(List.of(one.id()), c.executedIds(i), "number 2 ordered first is left for later");
            assertEquals(2, c.nodes[i].lastExecuted(), "both sequence numbers were consumed");
        }
    }
}
