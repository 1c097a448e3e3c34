package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Checkpoints, garbage collection, the last-reply table, and state transfer. */
class CheckpointAndStateTransferTest {

    private static void run(TestCluster c, String client, int from, int to) {
        for (int n = from; n <= to; n++) {
            c.send(TestCluster.request(client, n));
            c.deliverAll();
        }
    }

    @Test
    void aCheckpointBecomesStableWithTwoFPlusOneMatchingDigestsAndTheLogBelowItIsDiscarded() {
        TestCluster c = TestCluster.configurationI();
        run(c, "c", 1, 9);
        for (int i = 0; i < 4; i++) {
            assertEquals(8, c.nodes[i].stableCheckpoint(), "node " + i);
            assertTrue(c.replica(i).log.size() <= 1, "slots up to 8 are collected, node " + i + " keeps " + c.replica(i).log.size());
        }
    }

    @Test
    void twoMatchingCheckpointsOutOfFourDoNotMakeACheckpointStable() {
        TestCluster c = TestCluster.configurationI();
        c.down[3] = true;
        run(c, "c", 1, 4);
        // Only three replicas run; node 2's checkpoint messages are lost, so 0 and 1 see two matching, not three.
        assertEquals(4, c.nodes[2].stableCheckpoint());
        TestCluster d = TestCluster.configurationI();
        d.down[3] = true;
        for (int n = 1; n <= 4; n++) {
            d.send(TestCluster.request("c", n));
            d.deliverAll(f -> !(f.message() instanceof Checkpoint) || f.from() != 2);
        }
        assertEquals(0, d.nodes[0].stableCheckpoint());
        assertEquals(0, d.nodes[1].stableCheckpoint());
    }

    @Test
    void aReplicaReportingAWrongCheckpointDigestIsOutvoted() {
        TestCluster c = TestCluster.configurationI();
        run(c, "c", 1, 3);
        c.send(TestCluster.request("c", 4));
        List<TestCluster.InFlight> honest = new ArrayList<>();
        c.deliverAll(f -> {
            if (f.message() instanceof Checkpoint cp && cp.sender() == 3) {
                honest.add(f);
                return false;
            }
            return true;
        });
        assertEquals(4, c.nodes[0].stableCheckpoint(), "three matching digests suffice");
        c.inject(0, new Checkpoint(8, Digest.of(new byte[] {9}), 3));
        assertEquals(4, c.nodes[0].stableCheckpoint());
        assertFalse(honest.isEmpty());
    }

    @Test
    void checkpointVotesContradictingTheStableCheckpointAreRefusedAsTheirSendersWhetherTheyCameBeforeOrAfter() {
        TestCluster c = TestCluster.configurationI();
        run(c, "c", 1, 3);
        // node 3 lies about the state at 4 before the others vote, and its genuine vote never arrives
        c.inject(0, new Checkpoint(4, Digest.of(new byte[] {7}), 3));
        c.send(TestCluster.request("c", 4));
        c.deliverAll(f -> !(f.message() instanceof Checkpoint cp && cp.sender() == 3));
        assertEquals(4, c.nodes[0].stableCheckpoint(), "three matching digests suffice");
        assertTrue(c.droppedSomething(0, "contradicts the stable checkpoint's digest " + c.replica(0).checkpoints
                .stableDigest() + " [from node 3]"), c.dropped.get(0).toString());
        int before = c.dropped.get(0).size();
        // and again once 4 is stable
        c.inject(0, new Checkpoint(4, Digest.of(new byte[] {8}), 3));
        assertEquals(before + 1, c.dropped.get(0).size());
        assertTrue(c.dropped.get(0).get(before).contains("contradicts the stable checkpoint's digest")
                && c.dropped.get(0).get(before).endsWith("[from node 3]"), c.dropped.get(0).get(before));
        assertEquals(4, c.nodes[0].stableCheckpoint());
    }

    @Test
    void aRetransmittedRequestThatWasExecutedGetsTheCachedReplyAndIsNotExecutedAgain() {
        TestCluster c = TestCluster.configurationI();
        Request r = TestCluster.request("c", 1);
        c.send(r);
        c.deliverAll();
        int replies = c.replies.size();
        byte[] first = c.replies.get(0).result();
        c.send(r);
        c.deliverAll();
        for (int i = 0; i < 4; i++) {
            assertEquals(1, c.executedIds(i).size(), "node " + i + " executed the retransmission");
        }
        assertEquals(replies + 4, c.replies.size(), "every replica answered the retransmission");
        Reply again = c.replies.get(c.replies.size() - 1);
        assertEquals(new String(first), new String(again.result()));
    }

    /** Lets every message through and notes in {@code fetched[0]} whether a FetchRequests was among them. */
    private static Predicate<TestCluster.InFlight> fetchWatcher(boolean[] fetched) {
        return f -> {
            fetched[0] |= f.message() instanceof FetchRequests;
            return true;
        };
    }

    @Test
    void aBackupThatLacksARequestBodyFetchesItFromThePrimaryAfterAGraceAndThenPrepares() {
        TestCluster c = TestCluster.configurationI();
        Request r = TestCluster.request("c", 1);
        c.send(r, 0);
        boolean[] fetched = new boolean[1];
        Predicate<TestCluster.InFlight> watch = fetchWatcher(fetched);
        c.deliverAll(watch);
        assertFalse(fetched[0], "no fetch before the grace for the client's own copy is over");
        c.tickAndDeliver(2, watch);
        assertTrue(fetched[0]);
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(r.id()), c.executedIds(i));
        }
    }

    @Test
    void aClientsOwnCopyArrivingWithinTheGraceSparesTheFetch() {
        TestCluster c = TestCluster.configurationI();
        Request r = TestCluster.request("c", 1);
        c.send(r, 0);
        boolean[] fetched = new boolean[1];
        Predicate<TestCluster.InFlight> watch = fetchWatcher(fetched);
        c.deliverAll(watch); // the pre-prepare overtook the client's copies to the backups
        for (int i = 1; i < 4; i++) {
            c.send(r, i);
        }
        c.deliverAll(watch);
        assertFalse(fetched[0], "every backup had the body in time");
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(r.id()), c.executedIds(i));
        }
    }

    @Test
    void aReplicaRestartedWithEmptyMemoryCatchesUpByStateTransferAndThenMatchesTheOthers() {
        TestCluster c = TestCluster.configurationI();
        c.down[3] = true;
        run(c, "c", 1, 10);
        assertEquals(8, c.nodes[0].stableCheckpoint());
        c.restartEmpty(3);
        c.tickAndDeliver(40);
        assertTrue(c.nodes[3].stableCheckpoint() >= 8, "node 3 installed the stable checkpoint");
        run(c, "c", 11, 13);
        assertEquals(13, c.nodes[3].lastExecuted());
        assertEquals(c.appState(0), c.appState(3), "after state transfer and more requests, the states match");
        Request old = TestCluster.request("c", 13);
        int executions = c.executedIds(3).size();
        c.send(old, 3);
        assertEquals(executions, c.executedIds(3).size(), "the installed last-reply table prevents a second execution");
    }

    @Test
    void aReplicaWhoseServiceRefusesTheStateExecutesNothingAsksTheOtherExecutorsAgainAndRecoversOnceOneInstalls() {
        TestCluster c = TestCluster.configurationI();
        c.down[3] = true;
        run(c, "c", 1, 10);
        c.restartEmpty(3);
        c.serviceFails.add(3);
        java.util.Set<Integer> askedOf = new java.util.TreeSet<>();
        c.tickAndDeliver(400, f -> {
            if (f.message() instanceof FetchState && f.from() == 3) {
                askedOf.add(f.to());
            }
            return true;
        });
        run(c, "c", 11, 13); // the group goes on; node 3 commits but must not execute on a state it does not have
        c.tickAndDeliver(200);
        assertTrue(c.installs.get(3).size() >= 2, "it tried again after the refusal: " + c.installs.get(3));
        assertEquals(java.util.Set.of(0, 1, 2), askedOf, "it asked one executor after another");
        assertTrue(c.executed.get(3).isEmpty(), "nothing executed on a lost state: " + c.executedIds(3));
        assertEquals(0, c.nodes[3].lastExecuted());
        int attempts = c.installs.get(3).size();
        c.tickAndDeliver(100);
        assertTrue(c.installs.get(3).size() - attempts <= 1, "the attempts back off: "
                + (c.installs.get(3).size() - attempts) + " in 100 ticks");

        c.serviceFails.remove(3); // the service can take a state now (an operator fixed it, or a newer one came)
        c.tickAndDeliver(1_000);
        assertEquals(13, c.nodes[3].lastExecuted(), "installed the stable checkpoint 12 and ran 13 on top of it");
        assertEquals(12L, c.installs.get(3).get(c.installs.get(3).size() - 1));
        run(c, "c", 14, 17);
        assertEquals(17, c.nodes[3].lastExecuted());
        assertEquals(c.appState(0), c.appState(3), "after the installation and more requests the states match");
    }

    @Test
    void anExecutionNodeWhoseServiceRefusesTheStateExecutesNothingAndRecoversOnceItCanInstallOne() {
        TestCluster c = new TestCluster(Membership.configurationIII(1), TestCluster.options(1));
        int node = 6; // an execution node; 4 and 5 go on executing
        c.down[node] = true;
        run(c, "c", 1, 10);
        c.restartEmpty(node);
        c.serviceFails.add(node);
        c.tickAndDeliver(400);
        run(c, "c", 11, 13);
        c.tickAndDeliver(200);
        assertTrue(c.installs.get(node).size() >= 2, "it tried again after the refusal: " + c.installs.get(node));
        assertTrue(c.executed.get(node).isEmpty(), "nothing executed on a lost state: " + c.executedIds(node));

        c.serviceFails.remove(node);
        c.tickAndDeliver(1_000);
        run(c, "c", 14, 17);
        assertEquals(17, c.nodes[node].lastExecuted());
        assertEquals(c.appState(4), c.appState(node), "after the installation and more requests the states match");
    }

    @Test
    void aReplicaWhoseServiceFailsToGiveItsStateForACheckpointFetchesTheStableOneAndGoesOn() {
        TestCluster c = TestCluster.configurationI();
        run(c, "c", 1, 3);
        c.serviceFails.add(3);
        run(c, "c", 4, 6); // node 3's get_state at 4 fails
        assertEquals(4, c.nodes[0].stableCheckpoint(), "three others made 4 stable");
        assertEquals(4, c.nodes[3].lastExecuted(), "node 3 stopped at the checkpoint it could not take");
        c.serviceFails.remove(3);
        c.tickAndDeliver(200);
        assertEquals(6, c.nodes[3].lastExecuted(), "installed 4 and ran 5 and 6 on top of it");
        assertTrue(c.installs.get(3).contains(4L), c.installs.get(3).toString());
        run(c, "c", 7, 9);
        assertEquals(9, c.nodes[3].lastExecuted());
        assertEquals(c.appState(0), c.appState(3));
    }

    @Test
    void aStateSnapshotWhoseStateDoesNotMatchItsProofIsRefused() {
        TestCluster c = TestCluster.configurationI();
        c.down[3] = true;
        run(c, "c", 1, 8);
        c.restartEmpty(3);
        List<StateSnapshot> snapshots = new ArrayList<>();
        for (int t = 0; t < 40 && snapshots.isEmpty(); t++) {
            c.tickAndDeliver(1, f -> {
                if (f.message() instanceof StateSnapshot s) {
                    snapshots.add(s);
                    return false;
                }
                return true;
            });
        }
        StateSnapshot s = snapshots.get(0);
        byte[] bad = s.stateCopy();
        bad[bad.length - 1] ^= 1;
        c.inject(3, new StateSnapshot(s.seq(), bad, s.proof(), s.sender()));
        assertTrue(c.droppedSomething(3, "does not match the stable checkpoint"));
        assertEquals(0, c.nodes[3].lastExecuted(), "the corrupted state was not installed");
        List<Checkpoint> tooSmall = s.proof().subList(0, 2);
        c.inject(3, new StateSnapshot(s.seq(), s.stateCopy(), tooSmall, s.sender()));
        assertTrue(c.droppedSomething(3, "proof does not show the checkpoint stable"));
        c.inject(3, s);
        assertEquals(8, c.nodes[3].lastExecuted(), "the genuine snapshot installs");
    }

    @Test
    void aNodeWaitingForALargeStateAsksOneExecutorAtATimeAndBacksOffInsteadOfAskingAllAtEveryTimeout() {
        TestCluster c = TestCluster.configurationI();
        c.down[3] = true;
        run(c, "c", 1, 10);
        c.restartEmpty(3);
        int[] fetches = new int[1];
        // The snapshots never arrive (a state too large to come within the fetch timeout): node 3 must not flood
        // the executors with requests, each of which costs one whole state on the wire.
        c.tickAndDeliver(150, f -> {
            fetches[0] += f.message() instanceof FetchState && f.from() == 3 ? 1 : 0;
            return !(f.message() instanceof StateSnapshot && f.to() == 3);
        });
        int timeout = c.options.fetchTimeout();
        assertTrue(fetches[0] >= 2, "it asks again after the timeout: " + fetches[0]);
        assertTrue(fetches[0] <= 3, "asked " + fetches[0] + " times in 150 ticks with a fetch timeout of "
                + timeout + ": the wait starts at four timeouts and doubles (" + 4 * timeout + ", " + 8 * timeout
                + " ...)");
    }

    @Test
    void anExecutorWhoseExecutionsFallMoreThanAWindowBehindTheStableCheckpointFetchesItAndRunsOnlyTheBatchesAfter() {
        TestCluster c = TestCluster.configurationI(); // checkpoints every 4, watermark window 8
        c.holdServiceWork(3);
        run(c, "c", 1, 14);
        assertEquals(12, c.nodes[0].stableCheckpoint());
        assertEquals(0, c.nodes[3].lastExecuted(), "node 3's service has not finished its first batch");
        assertTrue(c.committed.get(3).size() >= 12, "node 3's agreement kept up: " + c.committed.get(3).size());

        c.releaseServiceWork(3);
        assertEquals(14, c.nodes[3].lastExecuted());
        assertEquals(c.appState(0), c.appState(3), "the state of checkpoint 12 and batches 13-14 on top of it");
        List<Long> numbers = c.executedIds(3).stream().map(RequestId::number).toList();
        assertEquals(List.of(1L, 13L, 14L), numbers, "batches 2-12 were covered by the fetched state, not executed");
        run(c, "c", 15, 16);
        assertEquals(c.appState(0), c.appState(3));
    }

    @Test
    void aPrimaryWhoseExecutionsLagKeepsProposingWhileItFetchesAndInstallsTheState() {
        TestCluster c = TestCluster.configurationI(); // at most 4 batches in flight
        c.holdServiceWork(0); // its installation of checkpoint 12 waits too
        run(c, "c", 1, 20);
        for (int i = 1; i < 4; i++) {
            assertEquals(20, c.nodes[i].lastExecuted(), "node " + i);
        }
        assertTrue(c.viewChangesStarted.isEmpty(), "nobody suspected the primary");
        c.releaseServiceWork(0);
        assertEquals(20, c.nodes[0].lastExecuted());
        assertEquals(c.appState(1), c.appState(0));
        assertEquals(List.of(1L, 13L, 14L, 15L, 16L, 17L, 18L, 19L, 20L),
                c.executedIds(0).stream().map(RequestId::number).toList());
    }

    @Test
    void aProvenStateThatTheGroupMovedPastWhileItTravelledIsInstalledAndTheNewerOneFetchedAfter() {
        TestCluster c = TestCluster.configurationI();
        c.down[3] = true;
        run(c, "c", 1, 10);
        c.restartEmpty(3);
        List<StateSnapshot> held = new ArrayList<>();
        java.util.function.Predicate<TestCluster.InFlight> holdSnapshots = f -> {
            if (f.message() instanceof StateSnapshot s && f.to() == 3) {
                held.add(s);
                return false;
            }
            return true;
        };
        for (int t = 0; t < 40 && held.isEmpty(); t++) {
            c.tickAndDeliver(1, holdSnapshots);
        }
        StateSnapshot travelling = held.get(0);
        assertEquals(8, travelling.seq());
        for (int n = 11; n <= 14; n++) { // meanwhile the group makes checkpoint 12 stable
            c.send(TestCluster.request("c", n));
            c.deliverAll(holdSnapshots);
        }
        assertEquals(12, c.nodes[0].stableCheckpoint());

        c.inject(3, travelling);
        assertTrue(c.nodes[3].lastExecuted() >= 8, "the state of checkpoint 8 was installed, not thrown away");
        c.tickAndDeliver(100);
        assertTrue(c.nodes[3].stableCheckpoint() >= 12, "then it fetched checkpoint 12");
        run(c, "c", 15, 16);
        assertEquals(16, c.nodes[3].lastExecuted());
        assertEquals(c.appState(0), c.appState(3));
    }

    @Test
    void theCheckpointedStateIncludesTheLastReplyTable() {
        ReplyTable t = new ReplyTable();
        t.executed(new RequestId("a", 3), new byte[] {1, 2});
        CheckpointState s = new CheckpointState(8, new byte[] {7}, t);
        CheckpointState back = CheckpointState.decode(s.encode());
        assertNotNull(back.replies().cachedReply(new RequestId("a", 3)).orElse(null));
        ReplyTable other = new ReplyTable();
        other.executed(new RequestId("a", 2), new byte[] {1, 2});
        assertFalse(Digest.of(s.encode()).equals(Digest.of(new CheckpointState(8, new byte[] {7}, other).encode())),
                "two states that differ only in the reply table have different digests");
    }

    @Test
    void aByzantineExecutorFloodingJunkCheckpointsCannotHideItsGenuineVoteFromALaggingExecutor() {
        // Configuration II: checkpoints need f+1 = 2 of the 3 executors; node 0 lags, node 1 is Byzantine.
        TestCluster c = new TestCluster(Membership.configurationII(1), new ReplicaOptions(4, 8, 1, 0, 4, 50, 10, 10, 8));
        Digest genuine = Digest.of(new byte[] {42});
        for (int junk = 0; junk < 6; junk++) {
            c.inject(0, new Checkpoint(4, Digest.of(new byte[] {(byte) junk}), 1));
        }
        c.inject(0, new Checkpoint(4, genuine, 2));
        assertEquals(0, c.nodes[0].stableCheckpoint());
        c.inject(0, new Checkpoint(4, genuine, 1));
        assertEquals(4, c.nodes[0].stableCheckpoint(), "the genuine vote, backed by a second executor, counts");
    }
}
