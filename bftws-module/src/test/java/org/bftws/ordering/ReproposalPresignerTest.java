package org.bftws.ordering;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bftws.core.Batch;
import org.bftws.core.Digest;
import org.bftws.core.Membership;
import org.bftws.core.NewView;
import org.bftws.core.PrePrepare;
import org.bftws.core.Prepare;
import org.bftws.core.PreparedCertificate;
import org.bftws.core.Request;
import org.bftws.core.RequestId;
import org.bftws.core.ViewChange;
import org.bftws.wire.KeyedGroup;
import org.bftws.wire.MessageSigner;
import org.bftws.wire.SignatureCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The next primary signs its likely re-proposals while it waits for the others' view-changes. */
class ReproposalPresignerTest {

    private static ViewChange viewChange(int sender, int slots) {
        return viewChange(1, sender, slots);
    }

    private static ViewChange viewChange(int newView, int sender, int slots) {
        List<PreparedCertificate> certs = new ArrayList<>();
        for (long n = 1; n <= slots; n++) {
            Request r = new Request(new RequestId("c", n), ("r" + n).getBytes(StandardCharsets.UTF_8));
            PrePrepare pp = new PrePrepare(0, n, new Batch(List.of(r.ref())), 0);
            certs.add(new PreparedCertificate(pp, List.of(new Prepare(0, n, pp.digest(), 2), new Prepare(0, n, pp.digest(), 3))));
        }
        return new ViewChange(newView, 0, Digest.of(new byte[] {0}), List.of(), certs, sender);
    }

    private static List<PrePrepare> reproposals(ViewChange vc) {
        int primary = vc.newView() % 4;
        return vc.prepared().stream().map(c -> new PrePrepare(vc.newView(), c.seq(), c.prePrepare().batch(), primary))
                .toList();
    }

    private static void awaitSigned(List<PrePrepare> parts, SignatureCache cache) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!parts.stream().allMatch(cache::contains) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    @Test
    void theNextPrimarySignsTheReproposalsOfItsOwnCertificatesBeforeTheNewViewLeaves(@TempDir Path dir) throws Exception {
        MessageSigner signer = new KeyedGroup(dir, "mac", "EchoService").signer(1);
        SignatureCache cache = new SignatureCache(1000);
        ReproposalPresigner presigner = new ReproposalPresigner(signer, cache, Membership.configurationI(1));
        try {
            ViewChange mine = viewChange(1, 30);
            presigner.ownViewChangeSent(mine);
            List<PrePrepare> likely = reproposals(mine);
            awaitSigned(likely, cache);
            for (PrePrepare pp : likely) {
                assertArrayEquals(signer.sign(pp), cache.signatureOf(pp).orElseThrow(), pp + " signed ahead");
            }
            NewView nv = new NewView(1, List.of(), likely, 1);
            assertEquals(1, signer.signOwnParts(nv, cache), "only the new-view itself is left to sign when it leaves");
        } finally {
            presigner.stop();
        }
    }

    @Test
    void aNodeThatWillNotBeThePrimarySignsNothingAhead(@TempDir Path dir) throws Exception {
        MessageSigner signer = new KeyedGroup(dir, "mac", "EchoService").signer(2);
        SignatureCache cache = new SignatureCache(1000);
        ReproposalPresigner presigner = new ReproposalPresigner(signer, cache, Membership.configurationI(1));
        try {
            ViewChange toOne = viewChange(1, 2, 5); // view 1's primary is node 1
            presigner.ownViewChangeSent(toOne);
            ViewChange toTwo = viewChange(2, 2, 5); // view 2's is node 2: signed after anything queued before it
            presigner.ownViewChangeSent(toTwo);
            awaitSigned(reproposals(toTwo), cache);
            assertEquals(5, cache.size(), "view 2's re-proposals only");
            assertFalse(reproposals(toOne).stream().anyMatch(cache::contains));
        } finally {
            presigner.stop();
        }
    }
}
