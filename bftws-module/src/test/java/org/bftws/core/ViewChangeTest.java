package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** View changes: suspecting the primary, re-proposals, timeouts, joining, and checking view-changes and new-views. */
class ViewChangeTest {

    private static final int TIMEOUT = 50;

    private static ViewChange emptyViewChange(int view, int sender) {
        return new ViewChange(view, 0, Checkpoints.GENESIS, List.of(), List.of(), sender);
    }

    @Test
    void aSilentPrimaryIsReplacedAndThePendingRequestExecutesInTheNewView() {
        TestCluster c = TestCluster.configurationI();
        c.down[0] = true;
        Request r = TestCluster.request("c", 1);
        c.send(r);
        c.tickAndDeliver(TIMEOUT + 20);
        for (int i = 1; i < 4; i++) {
            assertEquals(1, c.nodes[i].view(), "node " + i);
            assertEquals(List.of(r.id()), c.executedIds(i));
        }
    }

    @Test
    void aBatchPreparedInTheOldViewIsReproposedUnderTheSameSequenceNumberInTheNewView() {
        TestCluster c = TestCluster.configurationI();
        Request r = TestCluster.request("c", 1);
        c.send(r);
        c.deliverAll(f -> !(f.message() instanceof Commit));
        Digest prepared = ((Replica) c.nodes[1]).log.get(1).certificate.digest();
        c.down[0] = true;
        c.tickAndDeliver(3 * TIMEOUT, f -> !(f.message() instanceof Commit m && m.view() == 0));
        for (int i = 1; i < 4; i++) {
            assertEquals(1, c.nodes[i].view());
            Output.Committed committed = c.committed.get(i).get(0);
            assertEquals(1, committed.seq());
            assertEquals(1, committed.view(), "committed in the new view");
            assertEquals(prepared, committed.batch(), "with the digest prepared in the old view");
        }
    }

    @Test
    void theViewChangeTimeoutDoublesForEachConsecutiveViewChange() {
        TestCluster c = TestCluster.configurationI();
        c.send(TestCluster.request("c", 1));
        c.inflightClear();
        // No new-view ever arrives: every view change times out, each after twice the previous wait.
        c.tickAndDeliver(TIMEOUT * 16, f -> !(f.message() instanceof NewView) && f.from() != 0);
        List<Long> node1 = c.viewChangesStarted.stream().filter(e -> e[1] == 1).map(e -> e[0]).toList();
        assertTrue(node1.size() >= 4, "view changes at " + node1);
        long first = node1.get(1) - node1.get(0);
        long second = node1.get(2) - node1.get(1);
        long third = node1.get(3) - node1.get(2);
        assertTrue(Math.abs(second - 2 * first) <= 3 && Math.abs(third - 2 * second) <= 3,
                "waits " + first + ", " + second + ", " + third + " do not double");
    }

    @Test
    void aReplicaJoinsAViewChangeOnceFPlusOneOthersMovedToAHigherView() {
        TestCluster c = TestCluster.configurationI();
        c.inject(1, emptyViewChange(3, 2));
        assertTrue(c.viewChangesStarted.isEmpty(), "one node alone (it may be faulty) moves nobody");
        c.inject(1, emptyViewChange(2, 3));
        assertEquals(1, c.viewChangesStarted.size());
        assertEquals(2, c.viewChangesStarted.get(0)[2], "it joins the lowest view f+1 nodes have reached");
    }

    @Test
    void aNodeThatAnnouncedAViewTakesNoPartInALowerOne() {
        TestCluster c = TestCluster.configurationI();
        c.inject(3, emptyViewChange(2, 0));
        c.inject(3, emptyViewChange(2, 1));
        assertTrue(((Replica) c.nodes[3]).isViewChanging(), "node 3 moved towards view 2");
        List<ViewChange> forView1 = List.of(emptyViewChange(1, 0), emptyViewChange(1, 1), emptyViewChange(1, 2));
        c.inject(3, new NewView(1, forView1, List.of(), 1));
        assertEquals(0, c.nodes[3].view(), "a valid new-view for view 1 is ignored once view 2 was announced");
        assertTrue(c.views.get(3).isEmpty());
    }

    @Test
    void aViewChangeWhosePreparedCertificateLacksTwoFPreparesIsRefused() {
        TestCluster c = TestCluster.configurationI();
        Request r = TestCluster.request("c", 1);
        PrePrepare pp = new PrePrepare(0, 1, new Batch(List.of(r.ref())), 0);
        PreparedCertificate oneShort = new PreparedCertificate(pp, List.of(new Prepare(0, 1, pp.digest(), 2)));
        c.inject(1, new ViewChange(1, 0, Checkpoints.GENESIS, List.of(), List.of(oneShort), 2));
        assertTrue(c.droppedSomething(1, "has 1 prepares, needs 2"));
    }

    @Test
    void aViewChangeWhoseCertificateCarriesAPrePrepareNotFromThatViewsPrimaryIsRefused() {
        TestCluster c = TestCluster.configurationI();
        Request r = TestCluster.request("c", 1);
        PrePrepare forged = new PrePrepare(0, 1, new Batch(List.of(r.ref())), 2);
        PreparedCertificate cert = new PreparedCertificate(forged,
                List.of(new Prepare(0, 1, forged.digest(), 1), new Prepare(0, 1, forged.digest(), 3)));
        c.inject(1, new ViewChange(1, 0, Checkpoints.GENESIS, List.of(), List.of(cert), 2));
        assertTrue(c.droppedSomething(1, "not from the primary of view 0"));
    }

    @Test
    void aViewChangeClaimingAnUnprovenStableCheckpointIsRefused() {
        TestCluster c = TestCluster.configurationI();
        c.inject(1, new ViewChange(1, 8, Digest.of(new byte[] {1}), List.of(new Checkpoint(8, Digest.of(new byte[] {1}), 2)),
                List.of(), 2));
        assertTrue(c.droppedSomething(1, "stable checkpoint 8 is not proven"));
    }

    @Test
    void aNewViewWhosePrePreparesDoNotFollowFromItsViewChangesIsRefused() {
        TestCluster c = TestCluster.configurationI();
        List<ViewChange> vcs = List.of(emptyViewChange(1, 0), emptyViewChange(1, 2), emptyViewChange(1, 3));
        Request r = TestCluster.request("c", 1);
        PrePrepare invented = new PrePrepare(1, 1, new Batch(List.of(r.ref())), 1);
        c.inject(2, new NewView(1, vcs, List.of(invented), 1));
        assertTrue(c.droppedSomething(2, "do not follow from its view-changes"));
        assertEquals(0, c.nodes[2].view());
        c.inject(2, new NewView(1, vcs.subList(0, 2), List.of(), 1));
        assertTrue(c.droppedSomething(2, "needs 3 view-changes"));
        c.inject(2, new NewView(1, vcs, List.of(), 1));
        assertEquals(1, c.nodes[2].view(), "the honest new-view is accepted");
    }

    @Test
    void aNewViewReproposesNullBatchesForGapsBelowTheHighestPreparedSequenceNumber() {
        Request r = TestCluster.request("c", 1);
        PrePrepare pp = new PrePrepare(0, 3, new Batch(List.of(r.ref())), 0);
        PreparedCertificate cert = new PreparedCertificate(pp,
                List.of(new Prepare(0, 3, pp.digest(), 1), new Prepare(0, 3, pp.digest(), 2)));
        List<ViewChange> vcs = List.of(new ViewChange(1, 0, Checkpoints.GENESIS, List.of(), List.of(cert), 1),
                emptyViewChange(1, 2), emptyViewChange(1, 3));
        NewViewPlan plan = NewViewPlan.compute(Membership.configurationI(1), 1, vcs);
        assertEquals(3, plan.prePrepares().size());
        assertTrue(plan.prePrepares().get(0).batch().isNull());
        assertTrue(plan.prePrepares().get(1).batch().isNull());
        assertEquals(pp.digest(), plan.prePrepares().get(2).digest());
    }

    @Test
    void theHighestViewCertificateWinsWhenViewChangesDisagree() {
        Request a = TestCluster.request("a", 1);
        Request b = TestCluster.request("b", 1);
        PrePrepare old = new PrePrepare(0, 1, new Batch(List.of(a.ref())), 0);
        PrePrepare newer = new PrePrepare(1, 1, new Batch(List.of(b.ref())), 1);
        PreparedCertificate oldCert = new PreparedCertificate(old,
                List.of(new Prepare(0, 1, old.digest(), 1), new Prepare(0, 1, old.digest(), 2)));
        PreparedCertificate newCert = new PreparedCertificate(newer,
                List.of(new Prepare(1, 1, newer.digest(), 2), new Prepare(1, 1, newer.digest(), 3)));
        List<ViewChange> vcs = List.of(new ViewChange(2, 0, Checkpoints.GENESIS, List.of(), List.of(oldCert), 0),
                new ViewChange(2, 0, Checkpoints.GENESIS, List.of(), List.of(newCert), 3), emptyViewChange(2, 1));
        NewViewPlan plan = NewViewPlan.compute(Membership.configurationI(1), 2, vcs);
        assertEquals(newer.digest(), plan.prePrepares().get(0).digest());
    }
}
