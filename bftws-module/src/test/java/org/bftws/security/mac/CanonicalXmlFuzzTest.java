package org.bftws.security.mac;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.io.StringWriter;
import javax.xml.stream.XMLStreamException;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.om.util.StAXParserConfiguration;
import org.bftws.wire.CanonicalWriter;
import org.bftws.wire.MalformedXml;

/**
 * Fuzz target (docs/fuzzing.md): the canonical form of XML the {@code mac} profile authenticates (headers and
 * non-PBFT bodies, {@link CanonicalXml}), on any element AXIOM parses as a node parses a SOAP message (no DTD). The
 * writer either refuses the element as nested too deep (IllegalArgumentException, which the authenticator turns into
 * a MALFORMED refusal) or writes it; then writing is deterministic (the same bytes twice) and, as the class
 * documents, the receiver's parsed copy of what a sender serialises writes the same bytes as the sender's tree, so
 * that a MAC made on one side verifies on the other.
 */
class CanonicalXmlFuzzTest {

    @FuzzTest(maxDuration = "10m")
    void anElementIsWrittenTheSameTwiceAndTheSameAsItsSerialisedCopyOrRefusedAsTooDeep(byte[] xml) throws Exception {
        OMElement element;
        try {
            element = OMXMLBuilderFactory.createOMBuilder(StAXParserConfiguration.SOAP, new ByteArrayInputStream(xml))
                    .getDocumentElement();
            element.build();
        } catch (RuntimeException notXml) {
            if (!MalformedXml.isParserRefusal(notXml)) {
                throw notXml;
            }
            return; // the transport refuses it before any handler runs
        }
        byte[] written;
        try {
            written = write(element);
        } catch (IllegalArgumentException tooDeep) {
            return;
        }
        assertArrayEquals(written, write(element));
        OMElement copy = OMXMLBuilderFactory.createOMBuilder(StAXParserConfiguration.SOAP,
                new StringReader(serialise(element))).getDocumentElement();
        assertArrayEquals(written, write(copy));
    }

    private static byte[] write(OMElement element) {
        CanonicalWriter out = new CanonicalWriter(256);
        CanonicalXml.write(element, out);
        return out.toByteArray();
    }

    private static String serialise(OMElement element) throws XMLStreamException {
        StringWriter w = new StringWriter();
        element.serialize(w);
        return w.toString();
    }
}
