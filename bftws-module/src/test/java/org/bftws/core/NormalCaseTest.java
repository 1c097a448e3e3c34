package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PBFT's normal case: pre-prepare, prepare, commit, execution in sequence order. */
class NormalCaseTest {

    @Test
    void aRequestIsExecutedByEveryReplicaAfterPrePrepareTwoFPreparesAndTwoFPlusOneCommits() {
        TestCluster c = TestCluster.configurationI();
        Request r = TestCluster.request("c", 1);
        c.send(r);
        c.deliverAll();
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(r.id()), c.executedIds(i), "node " + i);
            assertEquals(1, c.nodes[i].lastExecuted());
        }
        assertEquals(4, c.replies.size(), "each replica answers the client");
    }

    @Test
    void aRequestDoesNotCommitWithoutTwoFPlusOneCommits() {
        TestCluster c = TestCluster.configurationI();
        c.send(TestCluster.request("c", 1));
        // Only nodes 0 and 1 get commits at all: two commits are not 2f+1 = 3.
        c.deliverAll(f -> !(f.message() instanceof Commit) || f.to() <= 1 && f.from() <= 1);
        for (int i = 0; i < 4; i++) {
            assertTrue(c.committed.get(i).isEmpty(), "node " + i + " committed with too few commits");
        }
    }

    @Test
    void aBackupThatReceivesTwoDifferentPrePreparesForOneSequenceNumberCommitsNeitherInThatView() {
        TestCluster c = TestCluster.configurationI();
        Request a = TestCluster.request("a", 1);
        Request b = TestCluster.request("b", 1);
        c.send(a, 1, 2, 3);
        c.send(b, 1, 2, 3);
        // The primary equivocates: batch [a] to nodes 1 and 2, batch [b] to node 3, and then [b] to node 1 too.
        PrePrepare ppA = new PrePrepare(0, 1, new Batch(List.of(a.ref())), 0);
        PrePrepare ppB = new PrePrepare(0, 1, new Batch(List.of(b.ref())), 0);
        c.inject(1, ppA);
        c.inject(1, ppB);
        c.inject(2, ppA);
        c.inject(3, ppB);
        c.deliverAll(f -> f.from() != 0 && f.to() != 0);
        for (int i = 1; i < 4; i++) {
            assertTrue(c.committed.get(i).isEmpty(), "node " + i + " committed in the equivocating view");
        }
        assertTrue(c.droppedSomething(1, "different pre-prepare"));
        assertTrue(c.viewChangesStarted.stream().anyMatch(e -> e[1] == 1 && e[2] == 1),
                "the backup that holds both pre-prepares suspects the primary at once");
    }

    @Test
    void executionFollowsSequenceOrderEvenWhenALaterSequenceNumberCommitsFirst() {
        TestCluster c = TestCluster.configurationI();
        Request first = TestCluster.request("a", 1);
        Request second = TestCluster.request("b", 1);
        c.send(first);
        c.send(second);
        List<TestCluster.InFlight> held = new ArrayList<>();
        c.deliverAll(f -> {
            boolean aboutSeq1 = (f.message() instanceof Prepare p && p.seq() == 1) || (f.message() instanceof Commit m && m.seq() == 1);
            if (aboutSeq1) {
                held.add(f);
            }
            return !aboutSeq1;
        });
        for (int i = 0; i < 4; i++) {
            assertTrue(c.executed.get(i).isEmpty(), "node " + i + " executed 2 before 1 committed");
        }
        held.forEach(f -> c.inject(f.to(), f.message()));
        c.deliverAll();
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(first.id(), second.id()), c.executedIds(i));
        }
    }

    @Test
    void everyReplicaEndsInTheSameStateAfterConcurrentClients() {
        TestCluster c = new TestCluster(Membership.configurationI(1), TestCluster.options(3));
        for (int n = 1; n <= 5; n++) {
            for (String client : List.of("x", "y", "z")) {
                c.send(TestCluster.request(client, n));
            }
            c.deliverAll();
        }
        for (int i = 1; i < 4; i++) {
            assertEquals(c.executedIds(0), c.executedIds(i));
            assertEquals(c.appState(0), c.appState(i));
        }
        assertEquals(15, c.executedIds(0).size());
    }

    @Test
    void aPrepareFromThePrimaryIsRefused() {
        TestCluster c = TestCluster.configurationI();
        c.inject(1, new Prepare(0, 1, Digest.of(new byte[] {1}), 0));
        assertTrue(c.droppedSomething(1, "the primary does not prepare"));
    }

    @Test
    void aPrePrepareFromABackupIsRefused() {
        TestCluster c = TestCluster.configurationI();
        Request r = TestCluster.request("c", 1);
        c.send(r);
        c.inflightClear();
        c.inject(2, new PrePrepare(0, 2, new Batch(List.of(r.ref())), 1));
        assertTrue(c.droppedSomething(2, "not from the primary"));
    }
}
