package org.bftws.security;

import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import javax.xml.stream.XMLStreamException;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;

/** SOAP envelopes as a BFT-WS client sends them: WS-Addressing and WS-RM headers and an echo body. */
public final class Envelopes {
    static final String WSA = "http://www.w3.org/2005/08/addressing";
    static final String WSRM = "http://docs.oasis-open.org/ws-rx/wsrm/200702";

    private Envelopes() {
    }

    public static String request(String to, String text) {
        return request(to, text, true);
    }

    /** Without the WS-RM Sequence header: an application message a plain (non-RM) endpoint accepts. */
    public static String requestWithoutSequence(String to, String text) {
        return request(to, text, false);
    }

    private static String request(String to, String text, boolean withSequence) {
        return "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                + " xmlns:wsa=\"" + WSA + "\" xmlns:wsrm=\"" + WSRM + "\">"
                + "<soapenv:Header>"
                + "<wsa:To>" + to + "</wsa:To>"
                + "<wsa:MessageID>urn:uuid:6d3c2b0a-1f4e-4a7b-9a77-5f3f0e2c1d11</wsa:MessageID>"
                + "<wsa:Action>urn:echo</wsa:Action>"
                + (withSequence ? "<wsrm:Sequence><wsrm:Identifier>urn:uuid:seq-1</wsrm:Identifier>"
                + "<wsrm:MessageNumber>1</wsrm:MessageNumber></wsrm:Sequence>" : "")
                + "</soapenv:Header>"
                + "<soapenv:Body><ns:echo xmlns:ns=\"http://echo.bftws.org\"><ns:text>" + text + "</ns:text></ns:echo>"
                + "</soapenv:Body></soapenv:Envelope>";
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
