package org.bftws.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import org.bftws.core.PrePrepare;
import org.bftws.core.Prepare;
import org.bftws.core.ViewChange;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node's embedded signatures: Ed25519 with its proof key, one signature per message value. */
class MessageSignerTest {
    @TempDir
    static Path dir;
    static KeyedGroup group;

    @BeforeAll
    static void keys() {
        group = new KeyedGroup(dir, "mac", "EchoService");
    }

    @Test
    void aMessageValueHasOneSignatureWhoeverSignsItWhenever() {
        // the design relies on it: an embedded proof carries the same bytes as the message it copies, so the
        // decoder may refuse two different signatures for one value and caches need no more than one
        PrePrepare pp = SampleMessages.prePrepare(0, 12, 4);
        PrePrepare sameValue = SampleMessages.prePrepare(0, 12, 4);
        MessageSigner one = group.signer(0);
        MessageSigner another = group.signer(0); // another signer object built from the same keystore
        byte[] first = one.sign(pp);
        assertArrayEquals(first, one.sign(pp));
        assertArrayEquals(first, another.sign(sameValue));
        assertEquals(MessageSigner.SIGNATURE_BYTES, first.length);
        assertEquals(64, first.length, "an Ed25519 signature");
    }

    @Test
    void differentValuesAndDifferentNodesGiveDifferentSignatures() {
        Prepare p = new Prepare(0, 9, SampleMessages.STATE_128, 1);
        Prepare q = new Prepare(0, 10, SampleMessages.STATE_128, 1);
        Prepare byTwo = new Prepare(0, 9, SampleMessages.STATE_128, 2);
        byte[] sp = group.signer(1).sign(p);
        assertFalse(Arrays.equals(sp, group.signer(1).sign(q)));
        assertFalse(Arrays.equals(sp, group.signer(2).sign(byTwo)));
    }

    @Test
    void whatOneNodeSignsVerifiesWithItsRegisteredKeyOnly() {
        ViewChange vc = SampleMessages.viewChange(2, 1, 2);
        byte[] sig = group.signer(1).sign(vc);
        ProofVerifier verifier = group.verifier(new SignatureCache(10));
        assertTrue(verifier.valid(vc, sig));
        ViewChange claimedByAnother = new ViewChange(vc.newView(), vc.stableSeq(), vc.stableDigest(), vc.stableProof(),
                vc.prepared(), 3);
        assertFalse(verifier.valid(claimedByAnother, sig), "node 3's key does not verify node 1's signature");
    }

    @Test
    void aNodeSignsOnlyItsOwnTransferableMessages() {
        MessageSigner signer = group.signer(1);
        assertThrows(IllegalArgumentException.class, () -> signer.sign(new Prepare(0, 9, SampleMessages.STATE_128, 2)));
        assertThrows(IllegalArgumentException.class,
                () -> signer.sign(new org.bftws.core.Commit(0, 9, SampleMessages.STATE_128, 1)));
    }

    @Test
    void aSignerNeedsAnEd25519Key() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MessageSigner(group.keys("replica1").privateKey(), 1, group.nodes.group()));
        assertTrue(e.getMessage().contains("not an Ed25519 key"), e.getMessage());
    }
}
