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

    private static List<ViewChangeRef> refs(List<ViewChange> vcs) {
        return vcs.stream().map(ViewChangeRef::of).toList();
    }

    /**
     * A new-view names its view-changes by digest, and backups recompute its re-proposals from the ones they hold:
     * were a batch's time outside the digest, a faulty node could send the primary and a backup view-changes that
     * differ only there, the backup's plan would not match, and it would refuse every new-view naming that node's.
     */
    @Test
    void viewChangesThatDifferOnlyInAPreparedBatchsTimeHaveDifferentDigests() {
        RequestRef r = new RequestRef(new RequestId("c", 1), Digest.of(new byte[] {1}));
        ViewChange at1 = prepared(new Batch(List.of(r), 1_000));
        ViewChange at2 = prepared(new Batch(List.of(r), 2_000));
        assertTrue(!at1.digest().equals(at2.digest()));
        assertTrue(!ViewChangeRef.of(at1).names(at2));
    }

    private static ViewChange prepared(Batch batch) {
        PrePrepare pp = new PrePrepare(0, 1, batch, 0);
        List<Prepare> prepares = List.of(new Prepare(0, 1, batch.digest(), 1), new Prepare(0, 1, batch.digest(), 2));
        return new ViewChange(1, 0, Checkpoints.GENESIS, List.of(), List.of(new PreparedCertificate(pp, prepares)), 3);
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
        c.inject(3, new NewView(1, refs(forView1), List.of(), 1));
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
        c.inject(2, emptyViewChange(1, 0));
        c.inject(2, emptyViewChange(1, 3)); // node 2 joins them and announces its own
        List<ViewChange> vcs = List.of(emptyViewChange(1, 0), c.replica(2).viewChanges().mine(), emptyViewChange(1, 3));
        Request r = TestCluster.request("c", 1);
        PrePrepare invented = new PrePrepare(1, 1, new Batch(List.of(r.ref())), 1);
        c.inject(2, new NewView(1, refs(vcs), List.of(invented), 1));
        assertTrue(c.droppedSomething(2, "do not follow from its view-changes"));
        assertEquals(0, c.nodes[2].view());
        c.inject(2, new NewView(1, refs(vcs.subList(0, 2)), List.of(), 1));
        assertTrue(c.droppedSomething(2, "needs 3 view-changes"));
        c.inject(2, new NewView(1, refs(vcs), List.of(), 1));
        assertEquals(1, c.nodes[2].view(), "the honest new-view is accepted");
    }

    /** Node 1's view-change to view 1 carrying a prepared certificate for slot 1 (request r, primary 0). */
    private static ViewChange viewChangeWithCertificate(int sender, Request r) {
        PrePrepare pp = new PrePrepare(0, 1, new Batch(List.of(r.ref())), 0);
        PreparedCertificate cert = new PreparedCertificate(pp,
                List.of(new Prepare(0, 1, pp.digest(), 2), new Prepare(0, 1, pp.digest(), 3)));
        return new ViewChange(1, 0, Checkpoints.GENESIS, List.of(), List.of(cert), sender);
    }

    @Test
    void aNewViewNamesItsViewChangesByDigestSoItsSizeDoesNotGrowWithTheirCertificates() {
        TestCluster c = TestCluster.configurationI();
        Request r = TestCluster.request("c", 1);
        c.send(r);
        c.deliverAll(f -> !(f.message() instanceof Commit));
        c.down[0] = true;
        List<NewView> sent = new java.util.ArrayList<>();
        List<ViewChange> viewChanges = new java.util.ArrayList<>();
        c.tickAndDeliver(3 * TIMEOUT, f -> {
            if (f.message() instanceof NewView nv) {
                sent.add(nv);
            } else if (f.message() instanceof ViewChange vc && vc.newView() == 1) {
                viewChanges.add(vc);
            }
            return !(f.message() instanceof Commit m && m.view() == 0);
        });
        assertTrue(!sent.isEmpty(), "node 1 sent the new-view of view 1");
        NewView nv = sent.get(0);
        assertEquals(3, nv.viewChanges().size());
        for (ViewChangeRef ref : nv.viewChanges()) {
            assertTrue(viewChanges.stream().anyMatch(ref::names), ref + " names a view-change that was sent to all");
        }
        assertTrue(viewChanges.stream().allMatch(vc -> vc.prepared().size() == 1), "each carries the certificate");
        for (int i = 1; i < 4; i++) {
            assertEquals(1, c.nodes[i].view(), "node " + i + " entered view 1 from the digests");
        }
    }

    @Test
    void aBackupMissingANamedViewChangeEntersTheViewOnceItArrivesNotBefore() {
        TestCluster c = TestCluster.configurationI();
        Request r = TestCluster.request("c", 1);
        ViewChange fromZero = viewChangeWithCertificate(0, r);
        c.inject(2, emptyViewChange(1, 3));
        c.inject(2, emptyViewChange(1, 0)); // node 2 joins (f+1 moved on)...
        ViewChange mine = c.replica(2).viewChanges().mine();
        // ...but the new primary built view 1 on another view-change of node 0, which node 2 has not received
        List<ViewChange> named = List.of(fromZero, mine, emptyViewChange(1, 3));
        PrePrepare reproposal = new PrePrepare(1, 1, new Batch(List.of(r.ref())), 1);
        c.inject(2, new NewView(1, refs(named), List.of(reproposal), 1));
        assertEquals(0, c.nodes[2].view(), "it cannot recompute the re-proposals without node 0's view-change");
        assertTrue(!c.droppedSomething(2, "do not follow"), "and does not refuse the new-view either");
        c.inject(2, fromZero);
        assertEquals(1, c.nodes[2].view(), "the named view-change completes the new-view");
        assertEquals(reproposal, c.replica(2).log.get(1).prePrepare);
    }

    @Test
    void aNewViewNamingAnAlteredViewChangeIsNotEnteredOnTheOneItsSenderSent() {
        TestCluster c = TestCluster.configurationI();
        Request r = TestCluster.request("c", 1);
        ViewChange honest = viewChangeWithCertificate(0, r);
        c.inject(2, honest);
        c.inject(2, emptyViewChange(1, 3));
        // the faulty new primary drops node 0's certificate: a view-change with another digest than node 0's
        ViewChange altered = emptyViewChange(1, 0);
        List<ViewChange> named = List.of(altered, c.replica(2).viewChanges().mine(), emptyViewChange(1, 3));
        c.inject(2, new NewView(1, refs(named), List.of(), 1));
        assertEquals(0, c.nodes[2].view(), "node 2 holds node 0's real view-change, whose certificate must be kept");
        assertTrue(!honest.digest().equals(altered.digest()));
    }

    @Test
    void aNodeThatMissedTheViewChangeIsSentTheNewViewWithTheViewChangesItNames() {
        TestCluster c = TestCluster.configurationI();
        Request r = TestCluster.request("c", 1);
        c.send(r);
        c.deliverAll(f -> !(f.message() instanceof Commit));
        c.down[0] = true;
        c.tickAndDeliver(3 * TIMEOUT, f -> !(f.message() instanceof Commit m && m.view() == 0));
        assertEquals(1, c.nodes[1].view());
        c.down[0] = false;
        c.inflightClear();
        // node 0 comes back in view 0, without the view-changes of view 1: the status exchange brings the new-view and
        // the view-changes it names
        c.tickAndDeliver(20 * TIMEOUT);
        assertEquals(1, c.nodes[0].view(), "node 0 entered view 1 from the resent new-view and view-changes");
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
