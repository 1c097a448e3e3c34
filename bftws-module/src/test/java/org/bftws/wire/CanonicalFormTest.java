package org.bftws.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.bftws.core.Batch;
import org.bftws.core.Checkpoint;
import org.bftws.core.Digest;
import org.bftws.core.Message;
import org.bftws.core.PrePrepare;
import org.bftws.core.Prepare;
import org.bftws.core.Reply;
import org.bftws.core.RequestId;
import org.bftws.core.RequestRef;
import org.bftws.core.Status;
import org.bftws.core.ViewChange;
import org.junit.jupiter.api.Test;

/** The canonical form is what signatures and MACs cover: stable across runs and versions, and one-to-one. */
class CanonicalFormTest {
    private static final Digest D = Digest.of(new byte[] {1, 2, 3});

    @Test
    void aPreparesCanonicalBytesAreFixedByTheFormatVersionOne() {
        // tag 2, view 1, seq 5, the 32 digest bytes, sender 3: changing this breaks every deployed signature
        String expected = "02" + "00000001" + "0000000000000005" + D.hex() + "00000003";
        assertEquals(expected, HexFormat.of().formatHex(CanonicalForm.of(new Prepare(1, 5, D, 3))));
    }

    @Test
    void equalMessagesBuiltSeparatelyHaveEqualCanonicalBytes() {
        List<Message> a = SampleMessages.everyType();
        List<Message> b = SampleMessages.everyType();
        for (int i = 0; i < a.size(); i++) {
            assertArrayEquals(CanonicalForm.of(a.get(i)), CanonicalForm.of(b.get(i)), a.get(i).toString());
        }
    }

    @Test
    void everySampleMessageOfEveryTypeHasDistinctCanonicalBytes() {
        Set<String> seen = new HashSet<>();
        for (Message m : SampleMessages.everyType()) {
            assertEquals(true, seen.add(HexFormat.of().formatHex(CanonicalForm.of(m))), m.toString());
        }
    }

    @Test
    void changingAnyFieldOfAPrepareChangesItsCanonicalBytes() {
        Prepare p = new Prepare(1, 5, D, 3);
        for (Prepare other : List.of(new Prepare(2, 5, D, 3), new Prepare(1, 6, D, 3),
                new Prepare(1, 5, Digest.of(new byte[] {9}), 3), new Prepare(1, 5, D, 2))) {
            assertDistinct(p, other);
        }
    }

    @Test
    void messagesOfDifferentTypesWithTheSameFieldsDiffer() {
        assertDistinct(new Prepare(1, 5, D, 3), new org.bftws.core.Commit(1, 5, D, 3));
    }

    @Test
    void lengthPrefixesKeepAClientIdAndANumberFromShiftingIntoEachOther() {
        Reply a = new Reply(new RequestId("client1", 12), 0, new byte[] {7}, 0);
        Reply b = new Reply(new RequestId("client11", 2), 0, new byte[] {7}, 0);
        assertDistinct(a, b);
        Batch ab = new Batch(List.of(new RequestRef(new RequestId("a", 1), D), new RequestRef(new RequestId("b", 1), D)));
        Batch ba = new Batch(List.of(new RequestRef(new RequestId("b", 1), D), new RequestRef(new RequestId("a", 1), D)));
        assertDistinct(new PrePrepare(0, 1, ab, 0), new PrePrepare(0, 1, ba, 0));
    }

    @Test
    void aViewChangeDiffersWhenOneEmbeddedPrepareDiffers() {
        ViewChange vc = SampleMessages.viewChange(2, 1, 2);
        var cert = vc.prepared().get(1);
        var prepares = new java.util.ArrayList<>(cert.prepares());
        Prepare first = prepares.get(0);
        prepares.set(0, new Prepare(first.view(), first.seq(), first.digest(), 3));
        var certs = new java.util.ArrayList<>(vc.prepared());
        certs.set(1, new org.bftws.core.PreparedCertificate(cert.prePrepare(), prepares));
        assertDistinct(vc, new ViewChange(vc.newView(), vc.stableSeq(), vc.stableDigest(), vc.stableProof(), certs,
                vc.sender()));
    }

    @Test
    void movingACheckpointFromTheProofToNowhereChangesTheBytes() {
        ViewChange vc = SampleMessages.viewChange(2, 1, 0);
        List<Checkpoint> fewer = vc.stableProof().subList(0, 2);
        assertDistinct(vc, new ViewChange(2, 128, vc.stableDigest(), fewer, List.of(), 1));
    }

    @Test
    void aStatusFlagIsPartOfTheBytes() {
        assertDistinct(new Status(1, true, 0, 0, 1, 2, java.util.Set.of()), new Status(1, 0, 0, 1));
        assertDistinct(new Status(1, true, 0, 0, 1, 2, java.util.Set.of(1)), new Status(1, true, 0, 0, 1, 2, java.util.Set.of(1, 2)));
    }

    private static void assertDistinct(Message a, Message b) {
        assertFalse(java.util.Arrays.equals(CanonicalForm.of(a), CanonicalForm.of(b)), a + " vs " + b);
    }
}
