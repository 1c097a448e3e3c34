package org.bftws.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.bftws.core.Message;
import org.bftws.core.NewView;
import org.bftws.core.Prepare;
import org.bftws.core.StateSnapshot;
import org.bftws.core.ViewChange;
import org.junit.jupiter.api.Test;

/** Every core message survives a binary channel frame unchanged, with its signatures; the frame is canonical. */
class BinaryCodecTest {
    private final BinaryCodec codec = new BinaryCodec(BundleCodecTest.LIMITS);

    @Test
    void theSampleMessagesCoverEveryMessageKindSoANewKindCannotGoUntested() {
        Set<MessageKind> covered = SampleMessages.everyType().stream().map(MessageKind::of)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(MessageKind.class)));
        assertEquals(EnumSet.allOf(MessageKind.class), covered);
    }

    @Test
    void everyMessageKindRoundTripsThroughAFrameToAnEqualValueWithItsSignatures() throws Exception {
        List<Message> all = SampleMessages.everyType();
        SignatureSource sigs = BundleCodecTest.fakeSignatures();
        WireBundle back = codec.decode(codec.encode(all, sigs, true));
        assertEquals(all.size(), back.messages().size());
        for (int i = 0; i < all.size(); i++) {
            Message sent = all.get(i);
            WireMessage got = back.messages().get(i);
            assertEquals(sent.getClass(), got.message().getClass());
            assertArrayEquals(CanonicalForm.of(sent), CanonicalForm.of(got.message()), sent.toString());
            if (!(sent instanceof StateSnapshot)) {
                assertEquals(sent, got.message());
            }
            for (Message part : Proofs.signedParts(sent)) {
                assertArrayEquals(sigs.signatureOf(part).orElseThrow(), got.signatureOf(part).orElseThrow(),
                        part + " in " + sent);
            }
        }
    }

    @Test
    void aFramePayloadIsExactlyTheBundlesCanonicalBytesSoADecodedFrameEncodesBackToItsOwnBytes() throws Exception {
        byte[] payload = codec.encode(SampleMessages.everyType(), BundleCodecTest.fakeSignatures(), true);
        WireBundle back = codec.decode(payload);
        assertArrayEquals(payload, back.canonicalBytes());
        SignatureSource received = m -> back.messages().stream().map(w -> w.signatureOf(m))
                .flatMap(Optional::stream).findFirst();
        assertArrayEquals(payload, codec.encode(back.coreMessages(), received, true));
    }

    @Test
    void aViewChangeKeepsItsCertificatesAndProofInOrderAndANewViewItsReproposalsSignatures() throws Exception {
        ViewChange vc = SampleMessages.viewChange(5, 3, 10);
        NewView nv = SampleMessages.newView();
        SignatureSource sigs = BundleCodecTest.fakeSignatures();
        WireBundle back = codec.decode(codec.encode(List.of(vc, nv), sigs, true));
        ViewChange vcBack = (ViewChange) back.messages().get(0).message();
        assertEquals(vc.prepared(), vcBack.prepared());
        assertEquals(vc.stableProof(), vcBack.stableProof());
        assertEquals(1 + 3 + 10 * 3, back.messages().get(0).signatureCount());
        assertEquals(1 + 3, back.messages().get(1).signatureCount());
    }

    @Test
    void transferableMessagesTravelWithoutSignaturesWhenNoneAreRequired() throws Exception {
        Prepare p = new Prepare(0, 1, SampleMessages.STATE_128, 1);
        WireMessage back = codec.decode(codec.encode(List.of(p), SignatureSource.none(), false)).messages().get(0);
        assertEquals(p, back.message());
        assertEquals(0, back.signatureCount());
    }

    @Test
    void encodingRefusesAMessageWithoutASignatureItMustCarryAndNamesTheMissingPart() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> codec.entry(SampleMessages.viewChange(1, 3, 1), SignatureSource.none(), true));
        assertTrue(e.getMessage().startsWith("no signature known for ViewChange(to v1"), e.getMessage());
        ViewChange vc = SampleMessages.viewChange(1, 3, 1);
        IllegalStateException inner = assertThrows(IllegalStateException.class,
                () -> codec.entry(vc, m -> m == vc ? Optional.of(new byte[] {1}) : Optional.empty(), true));
        assertTrue(inner.getMessage().startsWith("no signature known for Checkpoint(n128"), inner.getMessage());
        assertTrue(inner.getMessage().contains(" inside ViewChange(to v1"), inner.getMessage());
    }

    @Test
    void aPreparesFrameIsAsDocumented() {
        Prepare p = new Prepare(1, 5, SampleMessages.STATE_128, 3);
        byte[] payload = codec.encode(List.of(p), m -> Optional.of(new byte[] {1, 2, 3}), true);
        assertEquals("42" + "00000002" + "00000001"             // bundle tag, version 2, one message
                + "02" + "00000001" + "0000000000000005"           // Prepare, view 1, seq 5
                + SampleMessages.STATE_128.hex() + "00000003"      // digest, sender 3
                + "01" + "00000003" + "010203",                    // its signature: present, 3 bytes
                HexFormat.of().formatHex(payload));
    }

    @Test
    void aFrameHoldsAtLeastOneAndAtMostTheLimitsMessages() {
        assertThrows(IllegalArgumentException.class, () -> codec.frame(List.of()));
        byte[] e = codec.entry(new org.bftws.core.FetchState(1, 0), SignatureSource.none(), false);
        List<byte[]> tooMany = java.util.Collections.nCopies(WireLimits.DEFAULT_MAX_MESSAGES + 1, e);
        assertThrows(IllegalArgumentException.class, () -> codec.frame(tooMany));
    }

    @Test
    void requestsNamedByWhatTheirCopiesShareKeepTheirNamesThroughBothCodecsWhoeverSignedTheBytes() throws Exception {
        // two caller replicas' copies of one nested request: different bytes, the same content ("the identity")
        org.bftws.core.RequestId id = new org.bftws.core.RequestId("urn:uuid:virtual", 7);
        org.bftws.core.RequestIdentity byContent = r -> r.identifiedBy(
                new String(r.payload(), java.nio.charset.StandardCharsets.UTF_8).replaceAll("signed by \\w+", "")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        org.bftws.core.Request fromRelay0 = byContent.identify(org.bftws.core.Request.over(id,
                "echo a, signed by relay0".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        org.bftws.core.Request fromRelay1 = byContent.identify(org.bftws.core.Request.over(id,
                "echo a, signed by relay1".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertEquals(fromRelay0.digest(), fromRelay1.digest(), "one request, whichever copy");
        assertTrue(!fromRelay0.digest().equals(org.bftws.core.Request.over(id, fromRelay0.payload()).digest()),
                "a name by content is never a name by bytes");
        org.bftws.core.Batch batch = new org.bftws.core.Batch(List.of(fromRelay0.ref()), 1);
        // another replica relays relay1's copy in the batch committed as relay0's: the same request
        Message committed = new org.bftws.core.CommittedBatch(0, 1, batch, List.of(fromRelay1), 2);
        WireBundle binary = new BinaryCodec(BundleCodecTest.LIMITS, byContent).decode(
                codec.encode(List.of(committed), BundleCodecTest.fakeSignatures(), true));
        assertEquals(committed, binary.coreMessages().get(0));
        WireFormatException byBytes = assertThrows(WireFormatException.class, () -> codec.decode(
                codec.encode(List.of(committed), BundleCodecTest.fakeSignatures(), true)));
        assertTrue(byBytes.getMessage().contains("inconsistent"), byBytes.getMessage());
        BundleCodec xml = new BundleCodec(BundleCodecTest.LIMITS, byContent);
        org.apache.axiom.om.OMElement element = xml.encode(List.of(committed), BundleCodecTest.fakeSignatures(), true,
                org.apache.axiom.om.OMAbstractFactory.getOMFactory(), null);
        org.bftws.core.CommittedBatch back = (org.bftws.core.CommittedBatch) xml.decode(element).coreMessages().get(0);
        assertEquals(batch.digest(), back.batch().digest());
    }
}
