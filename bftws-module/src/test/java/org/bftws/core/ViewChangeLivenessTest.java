package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Liveness of view changes against a faulty next primary: a new-view that can never be completed (it names a
 * view-change that no correct node holds) must not keep a correct node from following f+1 others, or the correct
 * nodes never gather the 2f+1 view-changes that start the new-view timer and nobody ever moves past that primary
 * (sim seed 18595).
 */
class ViewChangeLivenessTest {

    private static final int TIMEOUT = 50;

    private static ViewChange emptyViewChange(int view, int sender) {
        return new ViewChange(view, 0, Checkpoints.GENESIS, List.of(), List.of(), sender);
    }

    /** Node 1's view-change for view 1 that it names in its new-view but never sends to anyone. */
    private static ViewChange neverSent() {
        return new ViewChange(1, 0, Checkpoints.GENESIS, List.of(), List.of(), 1);
    }

    /** A new-view for view 1 from its primary, node 1, naming nodes 2's and 3's view-changes and one it never sent. */
    private static NewView incompleteNewView() {
        List<ViewChange> named = List.of(neverSent(), emptyViewChange(1, 2), emptyViewChange(1, 3));
        return new NewView(1, named.stream().map(ViewChangeRef::of).toList(), List.of(), 1);
    }

    @Test
    void aReplicaHoldingAnIncompleteNewViewStillJoinsFPlusOneOthersThatMovedOn() {
        TestCluster c = TestCluster.configurationI();
        c.inject(0, incompleteNewView());
        c.inject(0, emptyViewChange(1, 2));
        c.inject(0, emptyViewChange(1, 3));
        assertEquals(0, c.nodes[0].view(), "the new-view still lacks node 1's view-change");
        assertTrue(c.replica(0).isViewChanging(), "but f+1 others left view 0: node 0 follows them");
        assertEquals(1, c.replica(0).viewChanges().targetView());
        assertEquals(1, c.viewChangesStarted.size());
    }

    @Test
    void theCorrectNodesMovePastANextPrimaryWhoseNewViewCanNeverBeCompleted() {
        TestCluster c = TestCluster.configurationI();
        c.down[1] = true; // the faulty primary of view 1: apart from its new-view below, it sends nothing
        Request r = TestCluster.request("c", 1);
        c.send(r, 2, 3); // node 0, the correct primary of view 0, never learns of it: nodes 2 and 3 suspect it
        c.inject(0, incompleteNewView()); // which arrives at node 0 before the view-changes of nodes 2 and 3
        c.tickAndDeliver(20 * TIMEOUT, f -> !(f.to() == 0 && f.message() instanceof ForwardedRequests
                && c.nodes[0].view() == 0));
        for (int i : new int[] {0, 2, 3}) {
            assertTrue(c.nodes[i].view() >= 2, "node " + i + " moved past view 1: view " + c.nodes[i].view());
            assertEquals(List.of(r.id()), c.executedIds(i), "node " + i);
        }
    }

    @Test
    void aBackupWhoseAcceptedPrePrepareNeverCommitsSuspectsThePrimaryThoughNoClientAskedIt() {
        // Node 2 learns the gated request only from the pre-prepare (and a peer's copy of its body, which is no
        // admission): no request of its own waits there, but an accepted batch that never commits is a request it
        // waits for (PBFT), so it must not stay in the view for ever (sim seed 41873: it did, while the others had
        // moved to the next view).
        TestCluster c = new TestCluster(Membership.configurationI(1), TestCluster.options(1), client -> true,
                SequenceRules.NONE);
        c.send(TestCluster.request("c", 1), 0, 1, 3);
        c.tickAndDeliver(4 * TIMEOUT, f -> f.to() != 2
                || f.message() instanceof PrePrepare || f.message() instanceof ForwardedRequests);
        assertTrue(c.viewChangesStarted.stream().anyMatch(v -> v[1] == 2 && v[2] == 1),
                "node 2 moved to view 1: " + c.viewChangesStarted.stream().map(java.util.Arrays::toString).toList());
    }
}
