package org.bftws.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.bftws.core.Batch;
import org.bftws.core.Checkpoint;
import org.bftws.core.Commit;
import org.bftws.core.Message;
import org.bftws.core.NewView;
import org.bftws.core.PrePrepare;
import org.bftws.core.Prepare;
import org.bftws.core.RequestId;
import org.bftws.core.RequestRef;
import org.bftws.core.SignedClaim;
import org.bftws.core.ViewChange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The signatures a node keeps to embed later: kept by value, collected at stable checkpoints, bounded. */
class SignatureCacheTest {
    private static final byte[] SIG = {1, 2, 3};

    @Test
    void aStableCheckpointDropsOrderingSignaturesUpToItButKeepsItsOwnProof() {
        SignatureCache cache = new SignatureCache(100);
        Prepare old = new Prepare(0, 128, SampleMessages.STATE_128, 1);
        Prepare newer = new Prepare(0, 129, SampleMessages.STATE_128, 1);
        PrePrepare oldPp = SampleMessages.prePrepare(0, 100, 2);
        Checkpoint earlier = new Checkpoint(64, SampleMessages.STATE_128, 1);
        List<Checkpoint> proof = SampleMessages.stableProof(128, SampleMessages.STATE_128);
        for (Message m : List.of(old, newer, oldPp, earlier)) {
            cache.put(m, SIG);
        }
        proof.forEach(c -> cache.put(c, SIG));
        assertEquals(3, cache.forgetUpTo(128));
        assertFalse(cache.contains(old));
        assertFalse(cache.contains(oldPp));
        assertFalse(cache.contains(earlier));
        assertTrue(cache.contains(newer));
        proof.forEach(c -> assertTrue(cache.contains(c), c + " proves the stable checkpoint and stays"));
    }

    @Test
    void aStableCheckpointKeepsWhatAHeldViewChangeEmbedsSoANewViewCarryingItCanStillBeSent() {
        SignatureCache cache = new SignatureCache(1000);
        // a view-change from a node restarted with an old stable checkpoint: certificates at 129-130, below ours
        ViewChange stale = SampleMessages.viewChange(3, 1, 2);
        cache.put(stale, SIG);
        stale.stableProof().forEach(c -> cache.put(c, SIG));
        stale.prepared().forEach(c -> {
            cache.put(c.prePrepare(), SIG);
            c.prepares().forEach(p -> cache.put(p, SIG));
        });
        Prepare unrelated = new Prepare(2, 140, SampleMessages.STATE_128, 1);
        cache.put(unrelated, SIG);

        cache.forgetUpTo(256);
        assertFalse(cache.contains(unrelated));
        assertTrue(cache.contains(stale));
        stale.prepared().forEach(c -> {
            assertTrue(cache.contains(c.prePrepare()), c.prePrepare() + " is still embeddable");
            c.prepares().forEach(p -> assertTrue(cache.contains(p), p + " is still embeddable"));
        });
        cache.forgetViewsBefore(4);
        cache.forgetUpTo(256);
        assertFalse(cache.contains(stale.prepared().get(0).prePrepare()), "gone with the view-change");
    }

    @Test
    void aStableCheckpointKeepsWhatTheNewestNewViewEmbedsSoItCanStillBeResentToALaggingNode() {
        SignatureCache cache = new SignatureCache(1000);
        NewView two = SampleMessages.newView(); // view-changes with stable checkpoint 128 and certificates at 129-130
        cache.put(two, SIG);
        for (ViewChange vc : SampleMessages.newViewChanges()) { // held: a node keeps those its new-view names
            cache.put(vc, SIG);
            vc.stableProof().forEach(c -> cache.put(c, SIG));
            vc.prepared().forEach(c -> {
                cache.put(c.prePrepare(), SIG);
                c.prepares().forEach(p -> cache.put(p, SIG));
            });
        }
        two.prePrepares().forEach(pp -> cache.put(pp, SIG));
        Prepare unrelated = new Prepare(2, 140, SampleMessages.STATE_128, 1);
        Checkpoint older = new Checkpoint(64, SampleMessages.STATE_128, 1);
        cache.put(unrelated, SIG);
        cache.put(older, SIG);

        assertEquals(2, cache.forgetUpTo(256), "only what the new-view does not embed goes");
        assertFalse(cache.contains(unrelated));
        assertFalse(cache.contains(older));
        for (ViewChange vc : SampleMessages.newViewChanges()) {
            vc.stableProof().forEach(c -> assertTrue(cache.contains(c)));
            vc.prepared().forEach(c -> {
                assertTrue(cache.contains(c.prePrepare()));
                c.prepares().forEach(p -> assertTrue(cache.contains(p)));
            });
        }
        two.prePrepares().forEach(pp -> assertTrue(cache.contains(pp)));
    }

    @Test
    void installingAViewDropsTheViewChangesAndNewViewsOfEarlierViews() {
        SignatureCache cache = new SignatureCache(100);
        ViewChange toOne = SampleMessages.viewChange(1, 3, 0);
        ViewChange toTwo = SampleMessages.viewChange(2, 3, 0);
        NewView two = SampleMessages.newView();
        cache.put(toOne, SIG);
        cache.put(toTwo, SIG);
        cache.put(two, SIG);
        assertEquals(1, cache.forgetViewsBefore(2));
        assertTrue(cache.contains(toTwo));
        assertTrue(cache.contains(two));
    }

    @Test
    void aFullCacheDropsTheLeastRecentlyUsedSignatureANewerRoundOfItsSlotReplacedAndCountsIt() {
        SignatureCache cache = new SignatureCache(3);
        Prepare a = new Prepare(0, 1, SampleMessages.STATE_128, 1);
        Prepare b = new Prepare(0, 2, SampleMessages.STATE_128, 1);
        cache.put(a, SIG);
        cache.put(b, SIG);
        cache.put(new Prepare(1, 1, SampleMessages.STATE_128, 2), SIG); // view 1's round at slot 1 replaces a's
        cache.signatureOf(a); // a is used, b is not
        cache.put(new Prepare(1, 2, SampleMessages.STATE_128, 2), SIG); // and at slot 2 b's
        assertTrue(cache.contains(a));
        assertFalse(cache.contains(b));
        assertEquals(1, cache.evictions());
        assertEquals(3, cache.size());
    }

    @Test
    void aFullCacheNeverDropsTheNewestNewViewItselfSoItCanStillBeSentAndResent() {
        SignatureCache cache = new SignatureCache(2);
        NewView two = SampleMessages.newView();
        cache.put(two, SIG);
        for (int view = 3; view <= 12; view++) {
            cache.put(new Prepare(view, 131, SampleMessages.STATE_128, view % 4), SIG);
        }
        assertTrue(cache.contains(two), "the newest new-view");
    }

    @Test
    void aFullCacheNeverDropsTheRoundInProgressSoAPrimarysNewPrePrepareCanBeSent() {
        SignatureCache cache = new SignatureCache(4);
        for (long seq = 129; seq <= 140; seq++) { // a window of slots, each in its first round
            cache.put(SampleMessages.prePrepare(0, seq, 2), SIG);
        }
        for (long seq = 129; seq <= 140; seq++) {
            assertTrue(cache.contains(SampleMessages.prePrepare(0, seq, 2)), "slot " + seq + "'s pre-prepare");
        }
        assertEquals(0, cache.evictions());
        assertEquals(12, cache.size(), "past the capacity by what the node still needs");
    }

    @Test
    void aFullCacheNeverDropsTheStableCheckpointsProofNorCheckpointsAboveItHoweverOldTheyAre() {
        SignatureCache cache = new SignatureCache(8);
        List<Checkpoint> proof = SampleMessages.stableProof(128, SampleMessages.STATE_128);
        proof.forEach(c -> cache.put(c, SIG));
        Checkpoint next = new Checkpoint(256, SampleMessages.STATE_128, 2);
        Checkpoint below = new Checkpoint(64, SampleMessages.STATE_128, 2);
        cache.put(next, SIG);
        cache.put(below, SIG);
        cache.forgetUpTo(128);
        cache.put(below, SIG); // a late checkpoint below the stable one: no proof needs it
        // a run of view changes: every new view re-proposes the window, and the proof is the eldest entry
        for (int view = 1; view <= 20; view++) {
            for (int seq = 129; seq <= 140; seq++) {
                cache.put(new Prepare(view, seq, SampleMessages.STATE_128, view % 4), SIG);
            }
        }
        proof.forEach(c -> assertTrue(cache.contains(c), c + " still proves the stable checkpoint"));
        assertTrue(cache.contains(next), "a checkpoint above the stable one may prove the next");
        assertFalse(cache.contains(below), "an old checkpoint below the stable one goes like any other entry");
        assertTrue(cache.evictions() > 200);
        assertTrue(cache.contains(new Prepare(20, 140, SampleMessages.STATE_128, 0)), "the newest entries stay");
        assertEquals(proof.size() + 1 + 12, cache.size(), "what stays: the proof, the checkpoint above it and each"
                + " slot's newest round (12 slots)");
    }

    @Test
    void aFullCacheNeverDropsWhatAHeldViewChangeEmbedsSoTheNodesNextViewChangeCanStillBeSent() {
        SignatureCache cache = new SignatureCache(8);
        ViewChange own = SampleMessages.viewChange(3, 1, 2); // its prepared certificates at 129-130
        own.prepared().forEach(c -> {
            cache.put(c.prePrepare(), SIG);
            c.prepares().forEach(p -> cache.put(p, SIG));
        });
        cache.put(own, SIG);
        for (int view = 4; view <= 20; view++) {
            cache.put(new Prepare(view, 131, SampleMessages.STATE_128, view % 4), SIG);
        }
        own.prepared().forEach(c -> {
            assertTrue(cache.contains(c.prePrepare()), c.prePrepare() + " is embedded in a held view-change");
            c.prepares().forEach(p -> assertTrue(cache.contains(p), p + " is embedded in a held view-change"));
        });
        assertTrue(cache.contains(own));
        assertTrue(cache.evictions() > 5, "other entries went: " + cache.evictions());
        cache.forgetViewsBefore(4); // a later view was installed: the view-change may go, its certificates are still
        // the node's highest for slots 129-130 until newer ones prepare there
        for (int view = 21; view <= 40; view++) {
            cache.put(new Prepare(view, 131, SampleMessages.STATE_128, view % 4), SIG);
        }
        assertTrue(cache.contains(own.prepared().get(0).prePrepare()), "still the highest certificate of its slot");
        for (int view = 41; view <= 42; view++) {
            for (long seq = 129; seq <= 130; seq++) {
                SampleMessages.certificate(view, seq, 3).prepares().forEach(p -> cache.put(p, SIG));
                cache.put(SampleMessages.certificate(view, seq, 3).prePrepare(), SIG);
            }
        }
        assertFalse(cache.contains(own.prepared().get(0).prePrepare()), "a newer certificate replaced it");
    }

    @Test
    void aRunOfViewsThatEachPreparedTheWindowNeverPushesOutTheCertificatesTheNextViewChangeEmbeds() {
        SignatureCache cache = new SignatureCache(30, 2);
        // views 1..6 each prepare slots 129-136 (a pre-prepare and two matching prepares) without committing them
        for (int view = 1; view <= 6; view++) {
            for (long seq = 129; seq <= 136; seq++) {
                certificate(view, seq).forEach(m -> cache.put(m, SIG));
            }
        }
        // view 7 gets its pre-prepares only: view 6's certificates are still the highest ones
        for (long seq = 129; seq <= 136; seq++) {
            cache.put(SampleMessages.prePrepare(7, seq, 2), SIG);
        }
        for (long seq = 129; seq <= 136; seq++) {
            for (Message m : certificate(6, seq)) {
                assertTrue(cache.contains(m), m + " is in the certificate the next view-change embeds");
            }
            assertTrue(cache.contains(SampleMessages.prePrepare(7, seq, 2)), "a later view's pre-prepare may prepare");
            for (Message m : certificate(1, seq)) {
                assertFalse(cache.contains(m), m + " belongs to a certificate a newer one replaced");
            }
        }
        assertTrue(cache.evictions() > 100, "older views' messages went: " + cache.evictions());
    }

    @Test
    void preparesWithoutTheirPrePrepareMakeNoCertificateSoALaterRoundOfTheSlotReplacesThem() {
        SignatureCache cache = new SignatureCache(4, 2);
        List<Message> halfCertificate = certificate(3, 129).subList(1, 3); // the two prepares, no pre-prepare
        halfCertificate.forEach(m -> cache.put(m, SIG));
        cache.put(new Prepare(4, 129, SampleMessages.STATE_128, 1), SIG);
        for (int view = 4; view <= 10; view++) {
            cache.put(new Prepare(view, 130, SampleMessages.STATE_128, 1), SIG);
        }
        halfCertificate.forEach(m -> assertFalse(cache.contains(m), m + " proves nothing alone"));
        assertEquals(4, cache.size());
    }

    /** A pre-prepare of view's primary for seq and the prepares of the next two nodes, matching its digest. */
    private static List<Message> certificate(int view, long seq) {
        PrePrepare pp = SampleMessages.prePrepare(view, seq, 2);
        return List.of(pp, new Prepare(view, seq, pp.digest(), (pp.sender() + 1) % 4),
                new Prepare(view, seq, pp.digest(), (pp.sender() + 2) % 4));
    }

    @Test
    void signedClaimsHowManySoEverNeverPushOutTheStableCheckpointsProof() {
        SignatureCache cache = new SignatureCache(4);
        List<Checkpoint> proof = SampleMessages.stableProof(128, SampleMessages.STATE_128);
        proof.forEach(c -> cache.put(c, SIG));
        for (int i = 1; i <= 100; i++) {
            RequestRef ref = new RequestRef(new RequestId("urn:uuid:client", i), SampleMessages.STATE_128);
            cache.put(new SignedClaim(List.of(ref), i % 4), SIG);
        }
        proof.forEach(c -> assertTrue(cache.contains(c), c + " kept"));
        assertEquals(0, cache.evictions());
        assertEquals(96, cache.claimEvictions());
        SignedClaim newest = new SignedClaim(List.of(new RequestRef(new RequestId("urn:uuid:client", 100),
                SampleMessages.STATE_128)), 0);
        assertTrue(cache.signatureOf(newest).isPresent(), "the newest claims stay");
    }

    @Test
    void onlyTransferableMessagesHaveSignaturesToKeep() {
        assertThrows(IllegalArgumentException.class,
                () -> new SignatureCache(2).put(new Commit(0, 1, SampleMessages.STATE_128, 1), SIG));
    }

    @Test
    void aGroupsCacheHasRoomForAWholeWatermarkWindowOfPreparesFromEveryNode(@TempDir Path dir) {
        KeyedGroup g = new KeyedGroup(dir, "none", "EchoService");
        // defaults: window 256, 4 nodes: 256 slots x (pre-prepare + 4 prepares) at least
        assertTrue(SignatureCache.forGroup(g.group).capacity() >= 256 * 5);
    }

    @Test
    void aSignerSignsItsOwnNewViewAndReproposalsButNothingItOnlyRelays(@TempDir Path dir) {
        KeyedGroup g = new KeyedGroup(dir, "mac", "EchoService");
        MessageSigner primary = g.signer(2);
        SignatureCache cache = new SignatureCache(100);
        NewView nv = SampleMessages.newView();
        // node 2's own parts: the new-view and its 3 re-proposals (the view-changes are only named by digest)
        assertEquals(4, primary.signOwnParts(nv, cache));
        assertTrue(cache.contains(nv));
        nv.prePrepares().forEach(pp -> assertTrue(cache.contains(pp)));
        assertEquals(0, primary.signOwnParts(nv, cache), "signed once, then taken from the cache");
        ViewChange nodeZeros = SampleMessages.newViewChanges().get(0);
        assertThrows(IllegalArgumentException.class, () -> primary.sign(nodeZeros), "not node 2's to sign");
    }

    @Test
    void thePeersSendingThreadsSignABroadcastMessagesOwnPartsOnceBetweenThem(@TempDir Path dir) throws Exception {
        KeyedGroup g = new KeyedGroup(dir, "mac", "EchoService");
        MessageSigner primary = g.signer(2);
        SignatureCache cache = new SignatureCache(1000);
        List<PrePrepare> reproposed = new java.util.ArrayList<>();
        for (long n = 129; n < 129 + 60; n++) {
            reproposed.add(new PrePrepare(2, n, Batch.NULL, 2));
        }
        NewView nv = new NewView(2, SampleMessages.newView().viewChanges(), reproposed, 2);
        List<Message> own = Proofs.signedParts(nv).stream().filter(m -> m.sender() == 2).distinct().toList();
        java.util.concurrent.ExecutorService peers = java.util.concurrent.Executors.newFixedThreadPool(3);
        try {
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<Integer>> made = new java.util.ArrayList<>();
            for (int peer = 0; peer < 3; peer++) {
                made.add(peers.submit(() -> {
                    start.await();
                    int n = primary.signOwnParts(nv, cache);
                    // what the thread's encoder needs next: every own part's signature, whoever made it
                    own.forEach(m -> assertTrue(cache.contains(m), m + " is signed when this thread returns"));
                    return n;
                }));
            }
            start.countDown();
            int total = 0;
            for (java.util.concurrent.Future<Integer> f : made) {
                total += f.get();
            }
            assertEquals(own.size(), total, "every own part signed once, not once per peer");
        } finally {
            peers.shutdownNow();
        }
    }
}
