package org.bftws.voting;

import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import javax.xml.stream.XMLStreamException;

import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.bftws.security.SecurityRefusal;
import org.bftws.wire.KeyedGroup;

/**
 * Replies as replicas send them to a client (WS-Addressing headers, an optional bftws:View header, a body), signed
 * with keygen's keys by whichever party a test chooses, and delivered as if from whichever node's endpoint.
 */
public final class SignedReplies {
    public static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    public static final String TEXT_XML = "text/xml; charset=UTF-8";

    private final KeyedGroup group;

    public SignedReplies(KeyedGroup group) {
        this.group = group;
    }

    public URI endpoint(int node) {
        return group.group.nodes().get(node).serviceEndpoint();
    }

    /** An unsigned SOAP 1.1 reply envelope with {@code body} as the Body's content and, if not null, a View header. */
    public static String envelope(String body, Integer view) {
        return "<soapenv:Envelope xmlns:soapenv=\"" + SOAP11 + "\" xmlns:wsa=\"http://www.w3.org/2005/08/addressing\">"
                + "<soapenv:Header>"
                + "<wsa:Action>http://bftws.org/samples/echo/echoResponse</wsa:Action>"
                + "<wsa:RelatesTo>urn:uuid:6d3c2b0a-1f4e-4a7b-9a77-5f3f0e2c1d11</wsa:RelatesTo>"
                + (view == null ? "" : "<bftws:View xmlns:bftws=\"urn:bftws:1\">" + view + "</bftws:View>")
                + "</soapenv:Header><soapenv:Body>" + body + "</soapenv:Body></soapenv:Envelope>";
    }

    /** {@code envelope} signed by {@code signer} (a node or client name of the group). */
    public String signed(String signer, String envelope) throws SecurityRefusal {
        return text(group.wsSecurity(signer).sign(parse(envelope)));
    }

    /** A reply of node {@code node}'s endpoint, signed by {@code signer}. */
    public NodeReply from(int node, String signer, String body, Integer view) throws SecurityRefusal {
        return at(node, signed(signer, envelope(body, view)));
    }

    /** Node {@code node}'s tentative answer in {@code view}, signed by it (the Tentative header under the signature). */
    public NodeReply tentative(int node, String body, int view) throws SecurityRefusal {
        String xml = envelope(body, view).replace("</soapenv:Header>",
                "<bftws:Tentative xmlns:bftws=\"urn:bftws:1\"/></soapenv:Header>");
        return at(node, signed("replica" + node, xml));
    }

    /** Node {@code node} answers with its own signature. */
    public NodeReply from(int node, String body) throws SecurityRefusal {
        return from(node, "replica" + node, body, null);
    }

    /** Exactly these bytes as node {@code node}'s HTTP 200 answer. */
    public NodeReply at(int node, String xml) {
        return new NodeReply(endpoint(node), 200, TEXT_XML, xml.getBytes(StandardCharsets.UTF_8));
    }

    public static SOAPEnvelope parse(String xml) {
        return OMXMLBuilderFactory.createSOAPModelBuilder(new StringReader(xml)).getSOAPEnvelope();
    }

    public static String text(SOAPEnvelope envelope) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            envelope.serialize(out);
            return out.toString(StandardCharsets.UTF_8);
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
    }
}
