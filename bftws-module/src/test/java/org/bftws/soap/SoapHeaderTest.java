package org.bftws.soap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.namespace.QName;

import org.junit.jupiter.api.Test;

/** What {@link SoapHeader} reads from a message's bytes, and what it refuses. */
class SoapHeaderTest {

    private static final String WSA = "http://www.w3.org/2005/08/addressing";
    private static final String WSRM = "http://docs.oasis-open.org/ws-rx/wsrm/200702";

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String envelope(String ns, String header, String body) {
        return "<?xml version='1.0' encoding='UTF-8'?><s:Envelope xmlns:s=\"" + ns + "\">"
                + (header == null ? "" : "<s:Header>" + header + "</s:Header>") + "<s:Body>" + body;
    }

    private static final String HEADER = "<wsa:To xmlns:wsa=\"" + WSA + "\">http://a/b</wsa:To>\n  <!-- a comment -->"
            + "<wsrm:Sequence xmlns:wsrm=\"" + WSRM + "\" s:mustUnderstand=\"true\"><wsrm:Identifier>urn:uuid:1"
            + "</wsrm:Identifier><wsrm:MessageNumber> 7 </wsrm:MessageNumber></wsrm:Sequence>"
            + "<wsa:ReplyTo xmlns:wsa=\"" + WSA + "\"><wsa:Address><![CDATA[http://c/]]>d</wsa:Address></wsa:ReplyTo>";

    @Test
    void everyHeaderBlockIsReadWithItsAttributesItsOwnTextAndItsChildrenInDocumentOrder() throws Exception {
        SoapHeader h = SoapHeader.read(bytes(envelope(SoapHeader.SOAP12, HEADER, "<x/></s:Body></s:Envelope>")));
        assertEquals(SoapHeader.SOAP12, h.envelopeNamespace());
        assertEquals(List.of(new QName(WSA, "To"), new QName(WSRM, "Sequence"), new QName(WSA, "ReplyTo")),
                h.blocks().stream().map(HeaderElement::name).toList());
        HeaderElement seq = h.blocks(new QName(WSRM, "Sequence")).get(0);
        assertEquals("true", seq.attribute(new QName(SoapHeader.SOAP12, "mustUnderstand")));
        assertNull(seq.attribute("mustUnderstand"), "a qualified attribute is not the unqualified one");
        assertEquals("urn:uuid:1", seq.firstChild(new QName(WSRM, "Identifier")).text());
        assertEquals(" 7 ", seq.firstChild(new QName(WSRM, "MessageNumber")).text());
        assertEquals("", seq.text(), "no text directly inside");
        assertEquals("http://c/d", h.blocks(new QName(WSA, "ReplyTo")).get(0).children().get(0).text(),
                "CDATA and text together, as AXIOM's getText gives them");
    }

    @Test
    void aSoap11EnvelopeIsReadAndOneWithoutHeaderHasNoBlocks() throws Exception {
        SoapHeader h = SoapHeader.read(bytes(envelope(SoapHeader.SOAP11, HEADER, "</s:Body></s:Envelope>")));
        assertEquals(SoapHeader.SOAP11, h.envelopeNamespace());
        assertEquals(3, h.blocks().size());
        assertEquals(List.of(), SoapHeader.read(bytes(envelope(SoapHeader.SOAP11, null, "<x/></s:Body></s:Envelope>")))
                .blocks());
    }

    @Test
    void theReadStopsAtTheBodysStartTagSoTheBodyIsNeverParsed() throws Exception {
        // a body that is not well-formed and never ends: the header is still read, which it could not be if any of
        // the body were
        SoapHeader h = SoapHeader.read(bytes(envelope(SoapHeader.SOAP12, HEADER, "<a><b></a> &undeclared; <")));
        assertEquals(3, h.blocks().size());
    }

    @Test
    void whatIsNotASoapEnvelopeIsRefusedWithTheReason() {
        assertRefused("<x:Envelope xmlns:x=\"urn:not-soap\"><x:Body/></x:Envelope>", "not a SOAP 1.1 or 1.2 Envelope");
        assertRefused("not xml", "not well-formed XML");
        assertRefused(envelope(SoapHeader.SOAP12, HEADER, "").replace("<s:Body>", "</s:Envelope>"),
                "ends before its Body");
        assertRefused(envelope(SoapHeader.SOAP12, "<a/>", "</s:Body></s:Envelope>").replace("</s:Header>",
                "</s:Header><s:Other/>"), "where its Header or Body belongs");
        assertRefused(envelope(SoapHeader.SOAP12, "<a/>", "</s:Body></s:Envelope>").replace("<s:Header>",
                "text<s:Header>"), "text where an element of the Envelope belongs");
        assertRefused(envelope(SoapHeader.SOAP12, "<a>", "</s:Body></s:Envelope>"), "not well-formed XML");
    }

    @Test
    void aDtdIsRefusedBeforeAnyEntityIsExpanded() {
        String laughs = "<?xml version='1.0'?><!DOCTYPE s:Envelope [<!ENTITY a \"aaaaaaaaaa\">"
                + "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">]>"
                + "<s:Envelope xmlns:s=\"" + SoapHeader.SOAP12 + "\"><s:Header><a>&c;</a></s:Header><s:Body/>"
                + "</s:Envelope>";
        assertRefused(laughs, "DTD");
    }

    @Test
    void aHeaderBeyondItsLimitsIsRefusedWithTheLimit() {
        assertRefused(envelope(SoapHeader.SOAP12, "<a/>".repeat(SoapHeader.MAX_ELEMENTS + 1), "</s:Body>"),
                "more than " + SoapHeader.MAX_ELEMENTS + " elements");
        int depth = SoapHeader.MAX_DEPTH + 1;
        assertRefused(envelope(SoapHeader.SOAP12, "<a>".repeat(depth) + "</a>".repeat(depth), "</s:Body>"),
                "deeper than " + SoapHeader.MAX_DEPTH);
        assertRefused(envelope(SoapHeader.SOAP12, "<a>" + "x".repeat(SoapHeader.MAX_TEXT_CHARS + 1) + "</a>",
                "</s:Body>"), "more than " + SoapHeader.MAX_TEXT_CHARS + " characters");
        // at the limits: read
        assertTrue(assertRead(envelope(SoapHeader.SOAP12, "<a/>".repeat(SoapHeader.MAX_ELEMENTS), "</s:Body>")));
    }

    private static boolean assertRead(String message) {
        try {
            SoapHeader.read(bytes(message));
            return true;
        } catch (MalformedSoap e) {
            throw new AssertionError("refused: " + e.getMessage(), e);
        }
    }

    private static void assertRefused(String message, String reason) {
        MalformedSoap e = assertThrows(MalformedSoap.class, () -> SoapHeader.read(bytes(message)));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }
}
