package org.bftws.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.axiom.om.OMElement;
import org.bftws.core.Message;
import org.bftws.core.NewView;
import org.bftws.core.Prepare;
import org.bftws.core.ViewChange;
import org.junit.jupiter.api.Test;

/** Every core message survives the trip through XML text unchanged, with the signatures that travel with it. */
class BundleCodecTest {
    static final WireLimits LIMITS = WireLimits.of(4, 64, 256);
    private final BundleCodec codec = new BundleCodec(LIMITS);

    /** Fake signatures: distinct bytes per message value, enough to see that each travels with its message. */
    static SignatureSource fakeSignatures() {
        Map<Message, byte[]> sigs = new HashMap<>();
        // 64 bytes, like an Ed25519 signature, and different for every value (a SHA-512 digest of its canonical form)
        return m -> Optional.of(sigs.computeIfAbsent(m, k -> sha512(CanonicalForm.of(k))));
    }

    private static byte[] sha512(byte[] bytes) {
        try {
            return java.security.MessageDigest.getInstance("SHA-512").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private WireBundle roundTrip(List<Message> messages, SignatureSource sigs) throws WireFormatException {
        OMElement element = codec.encode(messages, sigs, false, Xml.FACTORY, null);
        return codec.decode(Xml.parse(Xml.text(element)));
    }

    @Test
    void everyMessageTypeRoundTripsThroughXmlTextToAnEqualValue() throws Exception {
        List<Message> all = SampleMessages.everyType();
        WireBundle back = roundTrip(all, fakeSignatures());
        assertEquals(all.size(), back.messages().size());
        for (int i = 0; i < all.size(); i++) {
            Message sent = all.get(i);
            Message got = back.messages().get(i).message();
            assertEquals(sent.getClass(), got.getClass());
            // StateSnapshot's record equality compares its byte[] by identity, so compare canonical bytes for all
            assertArrayEquals(CanonicalForm.of(sent), CanonicalForm.of(got), sent.toString());
            if (!(sent instanceof org.bftws.core.StateSnapshot)) {
                assertEquals(sent, got);
            }
        }
    }

    @Test
    void aNewViewNamesItsViewChangesByDigestAndRoundTripsWithItsReproposalsSignatures() throws Exception {
        NewView nv = SampleMessages.newView();
        SignatureSource sigs = fakeSignatures();
        WireMessage back = roundTrip(List.of(nv), sigs).messages().get(0);
        assertEquals(nv, back.message());
        List<Message> parts = Proofs.signedParts(nv);
        // the new-view and its 3 re-proposals: the view-changes travel on their own, named by digest
        assertEquals(1 + 3, parts.size());
        for (Message part : parts) {
            assertArrayEquals(sigs.signatureOf(part).orElseThrow(), back.signatureOf(part).orElseThrow(), part.toString());
        }
    }

    @Test
    void aViewChangeAsItsOwnTopLevelMessageKeepsItsCertificatesInOrder() throws Exception {
        ViewChange vc = SampleMessages.viewChange(5, 3, 10);
        ViewChange back = (ViewChange) roundTrip(List.of(vc), fakeSignatures()).messages().get(0).message();
        assertEquals(vc.prepared(), back.prepared());
        assertEquals(vc.stableProof(), back.stableProof());
    }

    @Test
    void transferableMessagesTravelWithoutSignaturesWhenNoneAreRequired() throws Exception {
        Prepare p = new Prepare(0, 1, SampleMessages.STATE_128, 1);
        WireMessage back = roundTrip(List.of(p), SignatureSource.none()).messages().get(0);
        assertEquals(p, back.message());
        assertEquals(0, back.signatureCount());
        assertFalse(Xml.text(codec.encode(List.of(p), SignatureSource.none(), false, Xml.FACTORY, null)).contains("sig="));
    }

    @Test
    void encodingRefusesToSendATransferableMessageWithoutTheSignatureItMustCarry() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> codec.encode(
                List.of(SampleMessages.viewChange(1, 3, 1)), SignatureSource.none(), true, Xml.FACTORY, null));
        assertTrue(e.getMessage().startsWith("no signature known for Checkpoint(n128"), e.getMessage());
    }

    @Test
    void theWireFormLooksAsDocumented() {
        Prepare p = new Prepare(3, 17, SampleMessages.STATE_128, 2);
        String xml = Xml.text(codec.encode(List.of(p), m -> Optional.of(new byte[] {1, 2, 3}), true, Xml.FACTORY, null));
        assertEquals("<pbft:Messages xmlns:pbft=\"urn:bftws:pbft:1\"><pbft:Prepare view=\"3\" seq=\"17\" digest=\""
                + java.util.Base64.getEncoder().encodeToString(SampleMessages.STATE_128.bytes())
                + "\" from=\"2\" sig=\"AQID\"/></pbft:Messages>", xml);
    }

    @Test
    void theBundlesCanonicalBytesCoverTheEmbeddedSignatures() throws Exception {
        ViewChange vc = SampleMessages.viewChange(2, 1, 2);
        WireMessage signed = WireMessage.of(vc, fakeSignatures());
        Map<Message, byte[]> changed = new HashMap<>();
        for (Message part : Proofs.signedParts(vc)) {
            changed.put(part, signed.signatureOf(part).orElseThrow());
        }
        Prepare inner = vc.prepared().get(0).prepares().get(1);
        changed.put(inner, new byte[] {42});
        assertFalse(java.util.Arrays.equals(new WireBundle(List.of(signed)).canonicalBytes(),
                new WireBundle(List.of(new WireMessage(vc, changed))).canonicalBytes()));
    }
}
