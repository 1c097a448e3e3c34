package org.bftws.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.axiom.om.OMElement;
import org.bftws.core.Message;
import org.junit.jupiter.api.Test;

/**
 * A sender knows the bundle it encoded (what the mac profile authenticates) without decoding its own XML: the
 * recorded bundle has exactly the canonical bytes a receiver gets by decoding it.
 */
class RecordedSignaturesTest {
    private final BundleCodec codec = new BundleCodec(BundleCodecTest.LIMITS);

    private byte[] decodedCanonical(OMElement element) throws WireFormatException {
        return codec.decode(Xml.parse(Xml.text(element))).canonicalBytes();
    }

    @Test
    void theRecordedBundleIsTheBundleAReceiverDecodesForEveryMessageType() throws Exception {
        List<Message> all = SampleMessages.everyType();
        RecordedSignatures recorded = new RecordedSignatures(BundleCodecTest.fakeSignatures());
        OMElement element = codec.encode(all, recorded, true, Xml.FACTORY, null);
        assertArrayEquals(decodedCanonical(element), recorded.bundleOf(all).canonicalBytes());
    }

    @Test
    void aSignatureTheCacheLosesAfterEncodingIsStillTheOneRecorded() throws Exception {
        List<Message> bundle = List.of(SampleMessages.newView());
        SignatureSource full = BundleCodecTest.fakeSignatures();
        Map<Message, Boolean> evicted = new HashMap<>();
        // a cache that forgets a signature once it has been asked for it (another thread evicting meanwhile)
        SignatureSource forgetful = m -> evicted.put(m, true) == null ? full.signatureOf(m) : Optional.empty();
        RecordedSignatures recorded = new RecordedSignatures(forgetful);
        OMElement element = codec.encode(bundle, recorded, true, Xml.FACTORY, null);
        assertArrayEquals(decodedCanonical(element), recorded.bundleOf(bundle).canonicalBytes());
    }

    @Test
    void signaturesLeftOutWhenNoneAreRequiredAreLeftOutOfTheRecordedBundleToo() throws Exception {
        List<Message> bundle = List.of(SampleMessages.newView());
        RecordedSignatures recorded = new RecordedSignatures(SignatureSource.none());
        OMElement element = codec.encode(bundle, recorded, false, Xml.FACTORY, null);
        assertArrayEquals(decodedCanonical(element), recorded.bundleOf(bundle).canonicalBytes());
    }
}
