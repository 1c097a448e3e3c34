package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Idle client sequences expire by an ordered decision: the agreed time is the primary's clock reading in each
 * batch, checked by the backups within a bound, and executing a batch expires, at every replica alike, the entries
 * idle for longer than the limit; a sequence without a live entry created longer than the limit ago is refused.
 */
class SequenceExpiryTest {

    private static final long IDLE = 1_000;
    private static final long BOUND = 100;

    /** Clients are named "name@creationTime"; "END" payloads terminate. */
    private static final SequenceRules RULES = new SequenceRules() {
        @Override
        public boolean terminates(Request r) {
            return new String(r.payload(), StandardCharsets.UTF_8).startsWith("END");
        }

        @Override
        public long createdAt(String client) {
            int at = client.indexOf('@');
            return at < 0 ? NO_CREATION_TIME : Long.parseLong(client.substring(at + 1));
        }
    };

    private static TestCluster cluster() {
        return new TestCluster(Membership.configurationI(1), TestCluster.options(1).withSequenceExpiry(IDLE, BOUND),
                client -> false, RULES);
    }

    private static void run(TestCluster c, Request... requests) {
        for (Request r : requests) {
            c.send(r);
            c.deliverAll();
        }
    }

    private static long executedCount(TestCluster c, int node, String client) {
        return c.executed.get(node).stream().flatMap(e -> e.requests().stream())
                .filter(r -> r.id().client().equals(client)).count();
    }

    private static long refusals(TestCluster c, RequestId id, String why) {
        return c.replies.stream().filter(r -> r.request().equals(id)
                && Reply.endedReason(r.result()).equals(Optional.of(why))).count();
    }

    @Test
    void theWaitingRequestsOfASequenceThatNeverCommitsAreFreedWhenItExpires() {
        RequestStore store = new RequestStore(8, IDLE, RULES);
        store.add(TestCluster.request("stuck@0", 2), 0); // number 1 never comes: nothing of it ever commits
        store.add(TestCluster.request("stuck@0", 3), 0);
        store.add(TestCluster.request("young@900", 2), 0);
        store.advance(IDLE - 1);
        assertEquals(3, store.waitingCount(), "not expired yet");
        store.advance(IDLE + 1);
        assertEquals(1, store.waitingCount(), "the sequence created more than the limit ago is forgotten");
        assertEquals(Long.MAX_VALUE, store.committedNumber("stuck@0"), "as the executors refuse it");
        store.advance(IDLE + 901);
        assertEquals(0, store.waitingCount());
    }

    @Test
    void executingABatchExpiresTheSequencesIdleLongerThanTheLimitAtItsAgreedTimeOnEveryReplica() {
        TestCluster c = cluster();
        c.clocks(0);
        run(c, TestCluster.request("a@0", 1));
        c.clocks(500);
        run(c, TestCluster.request("b@400", 1));
        c.clocks(1_200);
        run(c, TestCluster.request("c@1100", 1)); // agreed time 1200: a (last active 0) is idle longer than 1000
        for (int i = 0; i < 4; i++) {
            ReplyTable table = c.replica(i).replyTable();
            assertEquals(List.of("b@400", "c@1100"), table.clients(), "node " + i);
            assertEquals(1_200, table.agreedTime(), "node " + i);
            assertEquals(List.of("a@0"), c.expired.get(i), "node " + i + " reports what it expired");
        }
    }

    @Test
    void aClientComingBackAfterTheLimitIsRefusedAsExpiredAndItsRequestsNeverExecuteAgain() {
        TestCluster c = cluster();
        c.clocks(0);
        run(c, TestCluster.request("a@0", 1));
        c.clocks(1_500);
        c.replies.clear();
        run(c, TestCluster.request("a@0", 2)); // judged at the batch's time: a expires first, then its request
        run(c, TestCluster.request("a@0", 1)); // a replay of what executed before the expiry
        c.tickAndDeliver(100);
        for (int i = 0; i < 4; i++) {
            assertEquals(1, executedCount(c, i, "a@0"), "node " + i + " executed a's first request only");
        }
        assertTrue(refusals(c, new RequestId("a@0", 2), Reply.EXPIRED) >= 4, c.replies.toString());
        assertTrue(refusals(c, new RequestId("a@0", 1), Reply.EXPIRED) >= 4, c.replies.toString());
        assertTrue(c.viewChangesStarted.isEmpty(), "refused requests make nobody suspect the primary");
    }

    @Test
    void aSequenceUsedWithinTheLimitStaysAlive() {
        TestCluster c = cluster();
        for (long t = 0; t <= 3_000; t += 600) {
            c.clocks(t);
            run(c, TestCluster.request("a@0", t / 600 + 1));
        }
        for (int i = 0; i < 4; i++) {
            assertEquals(6, executedCount(c, i, "a@0"), "node " + i);
            assertTrue(c.expired.get(i).isEmpty(), "node " + i);
        }
    }

    @Test
    void aSequenceCreatedMoreThanTheLimitAwayFromTheAgreedTimeCannotStart() {
        TestCluster c = cluster();
        c.clocks(5_000);
        run(c, TestCluster.request("old@3000", 1), TestCluster.request("future@9000", 1),
                TestCluster.request("fresh@4500", 1));
        c.tickAndDeliver(100);
        for (int i = 0; i < 4; i++) {
            assertEquals(0, executedCount(c, i, "old@3000"), "node " + i);
            assertEquals(0, executedCount(c, i, "future@9000"), "node " + i);
            assertEquals(1, executedCount(c, i, "fresh@4500"), "node " + i);
        }
        assertEquals(4, refusals(c, new RequestId("old@3000", 1), Reply.EXPIRED));
        assertEquals(4, refusals(c, new RequestId("future@9000", 1), Reply.NOT_YET_VALID));
        assertTrue(c.viewChangesStarted.isEmpty(), "a client's made-up creation time makes nobody suspect the primary");
    }

    @Test
    void aPrimaryWhoseClockLiesBeyondTheBoundIsNotPreparedAndGetsReplaced() {
        TestCluster c = cluster();
        c.clocks(10_000);
        c.clock(0, 10_000 + 60 * IDLE); // the primary of view 0 claims an hour later: it would expire everybody
        run(c, TestCluster.request("a@10000", 1));
        for (int i = 0; i < 4; i++) {
            assertEquals(0, executedCount(c, i, "a@10000"), "node " + i + " executed a lying primary's batch");
        }
        c.tickAndDeliver(3 * c.options.viewChangeTimeout());
        assertTrue(c.droppedSomething(1, "beyond the bound"));
        for (int i = 0; i < 4; i++) {
            assertTrue(c.replica(i).view() >= 1, "node " + i + " replaced the primary");
            assertEquals(1, executedCount(c, i, "a@10000"), "node " + i);
            assertTrue(c.replica(i).replyTable().agreedTime() <= 10_000 + BOUND, "node " + i + " agreed time "
                    + c.replica(i).replyTable().agreedTime());
        }
    }

    @Test
    void aPrePrepareThatArrivedDuringTheViewChangeIsCheckedAgainstTheClockOfItsArrival() {
        // Node 2 gets the new primary's first pre-prepare before the new-view that lets it enter the view; by the
        // time the new-view comes, its clock is well past the bound from the pre-prepare's time (seed 142018).
        TestCluster c = cluster();
        c.clocks(10_000);
        c.down[0] = true; // the primary of view 0 is gone: the others suspect it and move to view 1
        c.send(TestCluster.request("a@10000", 1), 1, 2, 3);
        List<Message> heldNewViews = new java.util.ArrayList<>();
        boolean[] prePrepareBuffered = new boolean[1];
        for (int t = 0; t < 10 * c.options.viewChangeTimeout() && !(prePrepareBuffered[0] && !heldNewViews.isEmpty()); t++) {
            c.tickAndDeliver(1, f -> {
                if (f.to() == 2 && f.message() instanceof NewView) {
                    heldNewViews.add(f.message());
                    return false;
                }
                if (f.to() == 2 && f.message() instanceof PrePrepare pp && pp.view() == 1) {
                    prePrepareBuffered[0] = true;
                }
                return true;
            });
        }
        assertTrue(prePrepareBuffered[0] && !heldNewViews.isEmpty(), "the schedule came about");
        assertEquals(0, c.replica(2).view(), "node 2 is still changing views");
        c.clocks(10_000 + 5 * BOUND);
        c.inject(2, heldNewViews.get(0));
        assertEquals(1, c.replica(2).view());
        assertFalse(c.droppedSomething(2, "beyond the bound"), "node 2 refused the pre-prepare it got in time");
        c.tickAndDeliver(20);
        assertEquals(1, executedCount(c, 2, "a@10000"));
    }

    @Test
    void aPrimaryWhoseClockIsOffWithinTheBoundIsHarmless() {
        TestCluster c = cluster();
        c.clocks(10_000);
        c.clock(0, 10_000 + BOUND);
        run(c, TestCluster.request("a@10000", 1));
        c.clock(0, 10_000 - BOUND); // and a step back: the agreed time keeps its maximum
        run(c, TestCluster.request("a@10000", 2));
        for (int i = 0; i < 4; i++) {
            assertEquals(2, executedCount(c, i, "a@10000"), "node " + i);
            assertEquals(10_000 + BOUND, c.replica(i).replyTable().agreedTime(), "node " + i);
        }
        assertTrue(c.viewChangesStarted.isEmpty());
    }

    @Test
    void anEndedSequencesRecordGoesOnceItsCreationIsOlderThanTheLimitAndItStaysRefused() {
        TestCluster c = cluster();
        c.clocks(0);
        run(c, TestCluster.request("a@0", 1), new Request(new RequestId("a@0", 2), "END".getBytes(StandardCharsets.UTF_8)));
        assertTrue(c.replica(1).replyTable().ended("a@0"));
        c.clocks(1_001);
        c.replies.clear();
        run(c, TestCluster.request("b@1000", 1), TestCluster.request("a@0", 1));
        for (int i = 0; i < 4; i++) {
            ReplyTable table = c.replica(i).replyTable();
            assertFalse(table.ended("a@0"), "node " + i + " still keeps the ended record");
            assertEquals(0, table.endedSize(), "node " + i);
            assertEquals(2, executedCount(c, i, "a@0"), "node " + i);
        }
        assertEquals(4, refusals(c, new RequestId("a@0", 1), Reply.EXPIRED));
    }

    @Test
    void aTerminateSequenceIsAnsweredThatItEndedBeforeAndAfterItsEndedRecordGoes() {
        // Executors on either side of the point where the record goes must not split the client's vote.
        TestCluster c = cluster();
        c.clocks(0);
        Request end = new Request(new RequestId("a@0", 2), "END".getBytes(StandardCharsets.UTF_8));
        run(c, TestCluster.request("a@0", 1), end);
        run(c, end); // retransmitted while the record is kept
        assertEquals(8, refusals(c, end.id(), Reply.TERMINATED), c.replies.toString());
        c.clocks(1_001);
        c.replies.clear();
        run(c, TestCluster.request("b@1000", 1), end); // the record went: the sequence is past the limit
        assertEquals(4, refusals(c, end.id(), Reply.TERMINATED), c.replies.toString());
        assertEquals(0, refusals(c, end.id(), Reply.EXPIRED));
        // a sequence that expired without a TerminateSequence: its TerminateSequence is told that it ended too
        Request expiredEnd = new Request(new RequestId("b@1000", 2), "END".getBytes(StandardCharsets.UTF_8));
        c.clocks(2_500);
        run(c, TestCluster.request("c@2400", 1), expiredEnd);
        assertEquals(4, refusals(c, expiredEnd.id(), Reply.TERMINATED), c.replies.toString());
        for (int i = 0; i < 4; i++) {
            assertEquals(1, executedCount(c, i, "b@1000"), "node " + i + " executed b's request, not its end");
        }
    }

    @Test
    void aLaggingNodeTakesTheBodyItsCommittedBatchLacksFromARequestItsTableAlreadyCallsExpired() {
        // Node 3 misses the body of a@0#2 (no peer's copy reaches it); the client's own copy then arrives, and node
        // 3's table, past the batch that expired a@0, answers it as expired: the bytes must still fill the slot.
        TestCluster c = cluster();
        c.clocks(0);
        run(c, TestCluster.request("a@0", 1));
        c.clocks(1_500);
        // proposed back to back: a@0#2 before the batch that expires a@0 committed (it is refused when it executes)
        Request late = TestCluster.request("a@0", 2);
        c.send(TestCluster.request("b@1400", 1));
        c.send(late, 0, 1, 2);
        c.deliverAll(f -> !(f.to() == 3 && f.message() instanceof ForwardedRequests));
        assertTrue(c.replica(3).lastExecuted() < c.replica(0).lastExecuted(), "node 3 lacks the body");
        c.send(late, 3);
        c.deliverAll();
        assertEquals(c.replica(0).lastExecuted(), c.replica(3).lastExecuted(), "node 3 caught up");
        assertEquals(1, executedCount(c, 3, "a@0"), "and refused a@0#2 like the others");
    }

    @Test
    void aCheckpointCarriesOnlyLiveEntriesTheBoundedEndedRecordsAndTheAgreedTime() {
        ReplyTable table = new ReplyTable();
        table.advance(100, IDLE);
        table.executing(new RequestId("a@0", 1), 0);
        table.executed(new RequestId("a@0", 1), new byte[] {1});
        table.executing(new RequestId("b@50", 1), 50);
        table.executed(new RequestId("b@50", 1), new byte[] {2});
        table.end("b@50", 50);
        table.advance(900, IDLE);
        table.executing(new RequestId("c@900", 1), 900);
        table.executed(new RequestId("c@900", 1), new byte[] {3});
        table.executing(new RequestId("d@800", 1), 800);
        table.executed(new RequestId("d@800", 1), new byte[] {4});
        table.end("d@800", 800);
        assertEquals(List.of("a@0"), table.advance(1_101, IDLE), "a was last active at 100");
        CheckpointState decoded = CheckpointState.decode(new CheckpointState(8, new byte[] {9}, table).encode());
        ReplyTable replies = decoded.replies();
        assertEquals(List.of("c@900"), replies.clients());
        assertEquals(900, replies.entries().get("c@900").lastActive());
        assertEquals(List.of("d@800"), List.copyOf(replies.endedClients().keySet()), "b's record (created at 50) went");
        assertEquals(1_101, replies.agreedTime());
        assertEquals(ReplyTable.Verdict.EXPIRED, replies.verdict(new RequestId("a@0", 2), 0, IDLE));
        assertEquals(ReplyTable.Verdict.EXPIRED, replies.verdict(new RequestId("b@50", 1), 50, IDLE));
        assertEquals(ReplyTable.Verdict.ENDED, replies.verdict(new RequestId("d@800", 1), 800, IDLE));
        assertEquals(List.of("c@900"), replies.advance(2_000, IDLE), "the decoded table expires like the original");
    }
}
