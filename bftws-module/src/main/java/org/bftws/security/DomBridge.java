package org.bftws.security;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.stream.XMLStreamException;
import javax.xml.transform.dom.DOMSource;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPModelBuilder;
import org.w3c.dom.Document;
import org.xml.sax.SAXException;

/**
 * AXIOM to DOM and back for WSS4J. AXIOM is serialised once and parsed by the JDK's DOM parser (the DOM Santuario
 * is tested on); a signed DOM returns to AXIOM by walking it, with no second parse. Measured (SignVerifyTimingTest):
 * 0.04 ms for a 7 KB signed request, against about 1 ms for the RSA-2048 signature itself.
 */
final class DomBridge {
    private static final ThreadLocal<DocumentBuilder> BUILDERS = ThreadLocal.withInitial(DomBridge::newBuilder);

    private DomBridge() {
    }

    static Document toDom(SOAPEnvelope envelope) throws SecurityRefusal {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
        try {
            envelope.serialize(bytes); // caches: the envelope stays usable for the rest of the flow
        } catch (XMLStreamException e) {
            throw new SecurityRefusal(RefusalReason.MALFORMED, "the envelope cannot be read: " + e.getMessage(), e);
        }
        return parse(bytes.toByteArray());
    }

    static Document parse(byte[] xml) throws SecurityRefusal {
        DocumentBuilder builder = BUILDERS.get();
        try {
            return builder.parse(new ByteArrayInputStream(xml));
        } catch (SAXException e) {
            throw new SecurityRefusal(RefusalReason.MALFORMED, "not well-formed XML: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new SecurityRefusal(RefusalReason.MALFORMED, e.getMessage(), e);
        } finally {
            builder.reset();
        }
    }

    static SOAPEnvelope toAxiom(Document document) {
        SOAPModelBuilder builder = OMXMLBuilderFactory.createSOAPModelBuilder(new DOMSource(document));
        SOAPEnvelope envelope = builder.getSOAPEnvelope();
        envelope.build();
        return envelope;
    }

    private static DocumentBuilder newBuilder() {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            // a SOAP message has no DTD; refusing one closes the door on entity expansion attacks
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setExpandEntityReferences(false);
            return factory.newDocumentBuilder();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }
}
