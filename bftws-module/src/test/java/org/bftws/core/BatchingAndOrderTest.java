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
