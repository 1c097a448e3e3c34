package org.bftws.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.om.util.StAXParserConfiguration;

/**
 * Fuzz target (docs/fuzzing.md): a {@code pbft:Messages} SOAP body as the HTTP transport hands it over, XML bytes
 * that AXIOM parses lazily while the decoder walks them, as a node parses a SOAP message (no DTD). Any bytes either decode or are refused with a
 * {@link WireFormatException} (malformed XML found during the walk included); when they decode, the canonical form
 * writer ({@link CanonicalForm}, what the {@code mac} profile authenticates and the binary channel sends) writes the
 * same bytes twice, and those bytes decode as a binary frame to a bundle with the very same canonical bytes: both
 * codecs agree on every message the XML reader accepts. Bytes AXIOM refuses before the decoder sees an element
 * (no root element, a broken prolog) never reach the decoder in a node either: Axis2 refuses the message first.
 */
class BundleXmlFuzzTest {
    private static final BundleCodec XML = new BundleCodec(BundleCodecTest.LIMITS);
    private static final BinaryCodec BINARY = new BinaryCodec(BundleCodecTest.LIMITS);

    @FuzzTest(maxDuration = "10m")
    void aBundleDecodesToMessagesBothCodecsWriteAlikeOrIsRefused(byte[] xml) throws WireFormatException {
        OMElement body;
        try {
            body = OMXMLBuilderFactory.createOMBuilder(StAXParserConfiguration.SOAP, new ByteArrayInputStream(xml))
                    .getDocumentElement();
        } catch (RuntimeException notXml) {
            if (!MalformedXml.isParserRefusal(notXml)) {
                throw notXml;
            }
            return;
        }
        WireBundle bundle;
        try {
            bundle = XML.decode(body);
        } catch (WireFormatException refused) {
            return;
        }
        byte[] canonical = bundle.canonicalBytes();
        assertArrayEquals(canonical, bundle.canonicalBytes());
        assertArrayEquals(canonical, BINARY.decode(canonical).canonicalBytes());
    }
}
