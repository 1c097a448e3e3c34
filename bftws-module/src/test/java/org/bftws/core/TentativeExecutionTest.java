package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PBFT's tentative execution: a prepared batch runs before it commits, and is undone if another batch commits. */
class TentativeExecutionTest {

    private static final int TIMEOUT = 50;

    private static TestCluster tentativeCluster() {
        return new TestCluster(Membership.configurationI(1), TestCluster.options(1).withTentativeExecution(true));
    }

    /** Requests 1-4 of client "w": the first checkpoint (at 4), which tentative execution needs to roll back to. */
    private static void warmUp(TestCluster c) {
        for (int k = 1; k <= 4; k++) {
            c.send(TestCluster.request("w", k));
            c.deliverAll();
        }
        for (int i = 0; i < 4; i++) {
            assertEquals(4, c.nodes[i].stableCheckpoint(), "node " + i);
        }
        c.replies.clear();
    }

    private static List<Reply> repliesTo(TestCluster c, RequestId id) {
        return c.replies.stream().filter(r -> r.request().equals(id)).toList();
    }

    @Test
    void aPreparedBatchRunsBeforeItCommitsAndStandsOnceItCommits() {
        TestCluster c = tentativeCluster();
        warmUp(c);
        Request r = TestCluster.request("a", 1);
        c.send(r);
        List<TestCluster.InFlight> commits = new ArrayList<>();
        c.deliverAll(f -> {
            if (f.message() instanceof Commit) {
                commits.add(f);
                return false;
            }
            return true;
        });
        for (int i = 0; i < 4; i++) {
            Output.Execute last = c.executed.get(i).get(c.executed.get(i).size() - 1);
            assertEquals(5, last.seq(), "node " + i);
            assertTrue(last.tentative(), "node " + i + " ran the prepared batch before any commit arrived");
            assertEquals(4, c.nodes[i].lastExecuted(), "a tentative execution is not counted as executed");
        }
        List<Reply> tentative = repliesTo(c, r.id());
        assertEquals(4, tentative.size());
        assertTrue(tentative.stream().allMatch(Reply::tentative), "the replies say they are tentative");

        commits.forEach(f -> c.inject(f.to(), f.message()));
        c.deliverAll();
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(5L), c.settled.get(i), "node " + i + " kept its tentative execution");
            assertEquals(5, c.nodes[i].lastExecuted());
            assertEquals(1, c.executedIds(i).stream().filter(r.id()::equals).count(), "executed once, not again");
            assertTrue(c.installs.get(i).isEmpty(), "nothing rolled back");
        }
        assertEquals(4, repliesTo(c, r.id()).size(), "no second reply: the tentative one stands");

        // the node goes on: the next checkpoint is taken and agreed on top of the tentative execution
        for (int k = 2; k <= 4; k++) {
            c.send(TestCluster.request("a", k));
            c.deliverAll();
        }
        for (int i = 0; i < 4; i++) {
            assertEquals(8, c.nodes[i].stableCheckpoint(), "node " + i);
            assertEquals(c.appState(0), c.appState(i), "node " + i);
        }
    }

    @Test
    void aTentativeExecutionThatAViewChangeOverridesIsUndoneThroughSetStateAndTheCommittedOrderRuns() {
        TestCluster c = tentativeCluster();
        warmUp(c);
        // b reaches the backups 1 and 2 only; a reaches everyone, and primary 0 proposes it at 5.
        Request b = TestCluster.request("b-early", 1);
        c.send(b, 1, 2);
        Request a = TestCluster.request("late", 1);
        c.send(a);
        // Only node 3 sees the prepares: it alone prepares a at 5, and runs it tentatively.
        c.deliverAll(f -> !(f.message() instanceof Commit) && !(f.message() instanceof Prepare && f.to() != 3));
        assertTrue(c.executed.get(3).get(c.executed.get(3).size() - 1).tentative());
        assertEquals(List.of(a.id()), repliesTo(c, a.id()).stream().map(Reply::request).toList());
        assertTrue(repliesTo(c, a.id()).get(0).tentative());
        for (int i = 0; i < 3; i++) {
            assertFalse(c.executedIds(i).contains(a.id()), "node " + i + " did not prepare a");
        }

        // The view changes without node 3's view-change: the new view re-proposes nothing at 5, and its primary
        // (node 1) orders b, which it got first, there.
        // (Status retransmissions would let 1 and 2 prepare it after all: view 0's prepares stay lost.)
        c.tickAndDeliver(3 * TIMEOUT, f -> !(f.message() instanceof ViewChange && f.from() == 3)
                && !(f.message() instanceof Commit m && m.view() == 0)
                && !(f.message() instanceof Prepare p && p.view() == 0));
        for (int i = 0; i < 4; i++) {
            assertEquals(1, c.nodes[i].view(), "node " + i);
            List<RequestId> expected = i == 3 ? List.of(a.id(), b.id(), a.id()) : List.of(b.id(), a.id());
            assertEquals(expected, c.executedIds(i).stream().filter(id -> !id.client().equals("w")).toList(),
                    "node " + i + " executes the committed order (node 3 after its undone tentative a)");
        }
        assertEquals(List.of(-5L), c.settled.get(3), "node 3 rolled its tentative execution back");
        assertEquals(List.of(4L), c.installs.get(3), "through set_state of its checkpoint at 4");
        for (int i = 0; i < 4; i++) {
            assertEquals(c.appState(0), c.appState(i), "node " + i + "'s service state");
            assertEquals(6, c.nodes[i].lastExecuted(), "node " + i);
        }
        List<Reply> fromNode3 = repliesTo(c, a.id()).stream().filter(r -> r.sender() == 3).toList();
        Reply last = fromNode3.get(fromNode3.size() - 1);
        assertFalse(last.tentative(), "node 3 answers a again once it committed");
        assertEquals(new String(repliesTo(c, a.id()).stream().filter(r -> r.sender() == 0).findFirst().orElseThrow()
                .result()), new String(last.result()), "with the result the others computed");
    }

    @Test
    void noBatchRunsTentativelyBeforeTheFirstCheckpointGivesAStateToRollBackTo() {
        TestCluster c = tentativeCluster();
        c.send(TestCluster.request("a", 1));
        c.deliverAll(f -> !(f.message() instanceof Commit));
        for (int i = 0; i < 4; i++) {
            assertTrue(c.executed.get(i).isEmpty(), "node " + i);
        }
    }

    @Test
    void withoutTheOptionNothingRunsBeforeItCommits() {
        TestCluster c = TestCluster.configurationI();
        warmUp(c);
        c.send(TestCluster.request("a", 1));
        c.deliverAll(f -> !(f.message() instanceof Commit));
        for (int i = 0; i < 4; i++) {
            assertEquals(4, c.executed.get(i).size(), "node " + i);
        }
    }
}
