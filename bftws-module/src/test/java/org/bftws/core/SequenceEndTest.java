package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A TerminateSequence ordered like a request ends its sequence on every replica, for good. */
class SequenceEndTest {

    private static final SequenceRules RULES = r -> new String(r.payload(), StandardCharsets.UTF_8).startsWith("END");

    private static TestCluster cluster() {
        return new TestCluster(Membership.configurationI(1), TestCluster.options(1), client -> false, RULES);
    }

    private static Request terminate(String client, long number) {
        return new Request(new RequestId(client, number), "END".getBytes(StandardCharsets.UTF_8));
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

    @Test
    void anExecutedTerminateRemovesTheSequencesEntryOnEveryReplicaAndKeepsOnlyThatItEnded() {
        TestCluster c = cluster();
        run(c, TestCluster.request("a", 1), TestCluster.request("a", 2), TestCluster.request("b", 1), terminate("a", 3));
        for (int i = 0; i < 4; i++) {
            ReplyTable table = c.replica(i).replyTable();
            assertFalse(table.entries().containsKey("a"), "node " + i);
            assertTrue(table.ended("a"), "node " + i);
            assertEquals(1, table.entries().get("b").number(), "node " + i);
        }
        long ended = c.replies.stream().filter(r -> r.request().equals(new RequestId("a", 3))
                && Reply.endedReason(r.result()).equals(java.util.Optional.of("terminated"))).count();
        assertEquals(4, ended, "every replica tells the client that its sequence ended");
    }

    @Test
    void aReplayedOrNewRequestOnAnEndedSequenceIsRefusedAndNeverExecutesAgain() {
        TestCluster c = cluster();
        run(c, TestCluster.request("a", 1), terminate("a", 2));
        c.replies.clear();
        run(c, TestCluster.request("a", 1), TestCluster.request("a", 3), terminate("a", 2));
        c.tickAndDeliver(100);
        for (int i = 0; i < 4; i++) {
            assertEquals(2, executedCount(c, i, "a"), "node " + i + " executed a's request and terminate only once");
        }
        assertFalse(c.replies.isEmpty());
        for (Reply r : c.replies) {
            assertEquals(java.util.Optional.of("terminated"), Reply.endedReason(r.result()), r.toString());
        }
    }

    @Test
    void aRequestOfAnEndedSequenceThatAFaultyPrimaryOrdersAnywayIsNotExecuted() {
        TestCluster c = cluster();
        run(c, TestCluster.request("a", 1), terminate("a", 2));
        // node 0 is the primary of view 0: it proposes the replay of a#1 although its store knows a ended
        Request replay = TestCluster.request("a", 1);
        for (int i = 1; i < 4; i++) {
            c.send(replay, i);
        }
        c.inject(1, new PrePrepare(0, 3, new Batch(List.of(replay.ref())), 0));
        c.inject(2, new PrePrepare(0, 3, new Batch(List.of(replay.ref())), 0));
        c.inject(3, new PrePrepare(0, 3, new Batch(List.of(replay.ref())), 0));
        c.deliverAll();
        for (int i = 1; i < 4; i++) {
            assertEquals(2, executedCount(c, i, "a"), "node " + i);
        }
    }

    @Test
    void aCheckpointCarriesTheLiveEntriesAndTheEndedSequencesAndDecodesToTheSame() {
        ReplyTable table = new ReplyTable();
        table.executing(new RequestId("a", 1), SequenceRules.NO_CREATION_TIME);
        table.executed(new RequestId("a", 1), new byte[] {1});
        table.executing(new RequestId("b", 1), SequenceRules.NO_CREATION_TIME);
        table.executed(new RequestId("b", 1), new byte[] {2});
        table.end("a", SequenceRules.NO_CREATION_TIME);
        CheckpointState decoded = CheckpointState.decode(new CheckpointState(4, new byte[] {9}, table).encode());
        assertEquals(List.of("b"), List.copyOf(decoded.replies().entries().keySet()));
        assertEquals(List.of("a"), List.copyOf(decoded.replies().endedClients().keySet()));
        assertEquals(ReplyTable.Verdict.ENDED, decoded.replies().verdict(new RequestId("a", 1),
                SequenceRules.NO_CREATION_TIME, 0));
    }
}
