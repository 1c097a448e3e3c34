package org.bftws.axis2.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.junit.jupiter.api.Test;

/** The WS-RM readers refuse what they cannot read with a WS-RM fault (docs/wsrm.md), whatever the parser says. */
class RmReadersTest {

    /** An envelope whose header holds, past what the parser reads at first, a byte that is not UTF-8. */
    private static SOAPEnvelope envelopeWithABadByteInItsHeader() {
        String xml = "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                + " xmlns:wsrm=\"http://docs.oasis-open.org/ws-rx/wsrm/200702\"><soapenv:Header>"
                + "<x:Padding xmlns:x=\"urn:x\">" + "p".repeat(12_000) + "</x:Padding>"
                + "<wsrm:Sequence><wsrm:Identifier>urn:uuid:s</wsrm:Identifier>"
                + "<wsrm:MessageNumber>1</wsrm:MessageNumber></wsrm:Sequence>"
                + "</soapenv:Header><soapenv:Body/></soapenv:Envelope>";
        byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
        bytes[xml.indexOf("</x:Padding>") - 100] = (byte) 0xb1;
        return OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(bytes), "UTF-8").getSOAPEnvelope();
    }

    /**
     * Found by RmReadersFuzzTest's sibling targets (docs/fuzzing.md): AXIOM parses lazily, and Woodstox reports such
     * a byte as its own unchecked exception, which escaped the readers instead of becoming the fault it deserves.
     */
    @Test
    void aHeaderThatIsNotWellFormedWhereTheReaderWalksItIsAnInvalidMessageFaultNotAParserException() {
        RmFault fault = assertThrows(RmFault.class, () -> RmHeaders.sequence(envelopeWithABadByteInItsHeader()));
        assertEquals("InvalidMessage", fault.rmCode().getLocalPart());
        assertTrue(fault.getMessage().contains("not well-formed XML"), fault.getMessage());
        assertThrows(RmFault.class, () -> RmHeaders.acknowledgements(envelopeWithABadByteInItsHeader()));
        assertThrows(RmFault.class, () -> RmHeaders.ackRequests(envelopeWithABadByteInItsHeader()));
    }

    @Test
    void aMessageNumberThatIsNotANumberIsAnInvalidMessageFault() {
        String xml = "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                + " xmlns:wsrm=\"http://docs.oasis-open.org/ws-rx/wsrm/200702\"><soapenv:Header>"
                + "<wsrm:Sequence><wsrm:Identifier>urn:uuid:s</wsrm:Identifier>"
                + "<wsrm:MessageNumber>seven</wsrm:MessageNumber></wsrm:Sequence>"
                + "</soapenv:Header><soapenv:Body/></soapenv:Envelope>";
        SOAPEnvelope env = OMXMLBuilderFactory.createSOAPModelBuilder(
                new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "UTF-8").getSOAPEnvelope();
        RmFault fault = assertThrows(RmFault.class, () -> RmHeaders.sequence(env));
        assertEquals("InvalidMessage", fault.rmCode().getLocalPart());
    }

    /** Found by RmReadersFuzzTest (its input crash-... is kept): a SOAP 1.1 envelope need not have a body. */
    @Test
    void aProtocolMessageWithoutABodyIsAnInvalidMessageFaultNotANullPointer() {
        String xml = "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Header/>"
                + "</soapenv:Envelope>";
        SOAPEnvelope env = OMXMLBuilderFactory.createSOAPModelBuilder(
                new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "UTF-8").getSOAPEnvelope();
        RmFault fault = assertThrows(RmFault.class, () -> RmBodies.readCreateSequence(RmBodies.of(env)));
        assertEquals("InvalidMessage", fault.rmCode().getLocalPart());
        assertTrue(fault.getMessage().contains("an empty body"), fault.getMessage());
        assertThrows(RmFault.class, () -> RmBodies.identifier(RmBodies.of(env), "CloseSequence"));
    }

    /** Found by RmReadersFuzzTest (its input is kept): AXIOM meets the bad character only on its way to the body. */
    @Test
    void aCharacterXmlForbidsBeforeTheBodyIsAnInvalidMessageFaultNotAParserException() {
        String xml = "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Header/>"
                + "\u0007<soapenv:Body/></soapenv:Envelope>";
        SOAPEnvelope env = OMXMLBuilderFactory.createSOAPModelBuilder(
                new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "UTF-8").getSOAPEnvelope();
        RmFault fault = assertThrows(RmFault.class, () -> RmBodies.of(env));
        assertEquals("InvalidMessage", fault.rmCode().getLocalPart());
        assertTrue(fault.getMessage().contains("not well-formed XML"), fault.getMessage());
    }
}
