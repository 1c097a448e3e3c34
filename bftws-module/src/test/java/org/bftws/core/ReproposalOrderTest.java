package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

/**
 * A new view re-proposes every prepared slot above the stable checkpoint (up to a checkpoint interval of them). A
 * backup that committed those slots already prepares them again, but only after what the view's progress depends
 * on: the slots it has not committed and the request a client waits for. Each prepare is signed on the wire, and a
 * log of them in front of the one that matters was most of a failover's time after the new-view (docs/recovery.md).
 */
class ReproposalOrderTest {

    private static final int TIMEOUT = 50;
    private static final int STATUS_PERIOD = 10;
    private static final int COMMITTED_BEFORE = 3;

    /** Checkpoints far apart, so the whole log is re-proposed; one request per batch. */
    private static TestCluster cluster() {
        return new TestCluster(Membership.configurationI(1),
                new ReplicaOptions(50, 100, 1, 0, 4, TIMEOUT, STATUS_PERIOD, 10, 8));
    }

    /** Sequence numbers of the view-1 prepares node 2 sends to node 3, in the order they leave. */
    private static Predicate<TestCluster.InFlight> recordingPreparesOfNode2(List<Long> order) {
        return f -> {
            if (f.message() instanceof Prepare p && p.view() == 1 && p.sender() == 2 && f.to() == 3) {
                order.add(p.seq());
            }
            return true;
        };
    }

    private static void commitInViewZero(TestCluster c) {
        for (int n = 1; n <= COMMITTED_BEFORE; n++) {
            c.send(TestCluster.request("c", n));
            c.deliverAll();
        }
        for (int i = 0; i < 4; i++) {
            assertEquals(COMMITTED_BEFORE, c.nodes[i].lastExecuted(), "node " + i + " executed the first requests");
        }
    }

    @Test
    void aBackupPreparesTheRequestAClientWaitsForBeforeTheReproposalsItHadCommitted() {
        TestCluster c = cluster();
        commitInViewZero(c);
        c.down[0] = true;
        Request waiting = TestCluster.request("c", COMMITTED_BEFORE + 1);
        c.send(waiting);
        List<Long> order = new ArrayList<>();
        c.tickAndDeliver(TIMEOUT + 5 * STATUS_PERIOD, recordingPreparesOfNode2(order));
        for (int i = 1; i < 4; i++) {
            assertEquals(1, c.nodes[i].view(), "node " + i);
            assertTrue(c.executedIds(i).contains(waiting.id()), "node " + i + " executed the waiting request");
        }
        assertEquals(COMMITTED_BEFORE + 1, order.get(0), "the first prepare of the new view: " + order);
        assertEquals(List.of(4L, 1L, 2L, 3L), order, "the re-proposals follow, once the request executed");
    }

    @Test
    void withoutAFollowingRequestTheHeldBackPreparesLeaveAStatusPeriodAfterTheViewWasEntered() {
        TestCluster c = cluster();
        commitInViewZero(c);
        // The last request prepares in view 0 but never commits there: the new view re-proposes it at the top of
        // its log, and nothing executes beyond the re-proposals.
        Request last = TestCluster.request("c", COMMITTED_BEFORE + 1);
        c.send(last);
        c.deliverAll(f -> !(f.message() instanceof Commit));
        c.down[0] = true;
        List<Long> order = new ArrayList<>();
        long enteredAt = -1;
        for (int t = 0; t < 3 * TIMEOUT && order.size() < COMMITTED_BEFORE + 1; t++) {
            c.tickAndDeliver(1, recordingPreparesOfNode2(order).and(f -> !(f.message() instanceof Commit m
                    && m.view() == 0)));
            if (enteredAt < 0 && c.nodes[2].view() == 1) {
                enteredAt = c.tick;
                assertEquals(List.of(COMMITTED_BEFORE + 1L), order, "at first only the uncommitted slot");
            }
        }
        assertTrue(enteredAt > 0, "node 2 entered view 1: " + c.replica(2).describe());
        assertEquals(List.of(4L, 1L, 2L, 3L), order);
        assertTrue(c.tick - enteredAt >= STATUS_PERIOD - 1 && c.tick - enteredAt <= STATUS_PERIOD + 1,
                "held back for a status period: entered at " + enteredAt + ", all sent by " + c.tick);
        for (int i = 1; i < 4; i++) {
            assertTrue(c.executedIds(i).contains(last.id()), "node " + i + " executed the re-proposed request");
        }
    }
}
