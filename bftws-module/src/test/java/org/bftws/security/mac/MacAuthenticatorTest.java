package org.bftws.security.mac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.context.MessageContext;
import org.bftws.security.AuthenticatedParty;
import org.bftws.security.RefusalReason;
import org.bftws.security.SecurityRefusal;
import org.bftws.wire.KeyedGroup;
import org.bftws.wire.WireBundle;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mac profile between two nodes, on envelopes as Axis2 holds them: the authenticator binds the message to its
 * sender, its receiver, its WS-RM sequence position, its WS-A/WS-RM headers and its body's PBFT messages with their
 * embedded signatures; everything else stays WS-Security signed.
 */
class MacAuthenticatorTest {
    @TempDir
    static Path dir;
    static KeyedGroup group;
    static MacAuthenticator[] nodes = new MacAuthenticator[4];
    static MacAuthenticator client;

    @BeforeAll
    static void keys() {
        group = new KeyedGroup(dir, "mac", "EchoService");
        for (int i = 0; i < 4; i++) {
            nodes[i] = authenticator("replica" + i);
        }
        client = authenticator("client1");
    }

    static MacAuthenticator authenticator(String party) {
        return MacFixtures.authenticator(group, party);
    }

    static String controlEndpoint(int node) {
        return "http://127.0.0.1:" + (9100 + node) + KeyedGroup.controlPath();
    }

    static String envelope(int to, String seq, String body) {
        return MacFixtures.envelope(controlEndpoint(to), seq, body);
    }

    static String bundle() {
        return MacFixtures.bundle(group);
    }

    static SOAPEnvelope parse(String xml) {
        return MacFixtures.parse(xml);
    }

    static String text(SOAPEnvelope env) {
        return MacFixtures.text(env);
    }

    static String sent(MacAuthenticator from, int to, String xml) throws SecurityRefusal {
        return MacFixtures.sent(from, group, controlEndpoint(to), xml);
    }

    static MessageContext received(String wire) throws Exception {
        return MacFixtures.received(wire);
    }

    static SecurityRefusal refusedBy(int node, String wire) {
        return assertThrows(SecurityRefusal.class, () -> nodes[node].authenticate(received(wire), group.group));
    }

    @Test
    void aMessageBetweenTwoNodesCarriesAnAuthenticatorThatItsReceiverAccepts() throws Exception {
        String wire = sent(nodes[0], 1, envelope(1, "urn:uuid:s-01", bundle()));
        assertTrue(wire.contains("<mac:Authenticator"), wire);
        assertTrue(wire.contains("from=\"replica0\" to=\"replica1\""), wire);
        assertFalse(wire.contains("wsse:Security"), "no WS-Security signature between nodes: " + wire);
        MessageContext in = received(wire);
        AuthenticatedParty sender = nodes[1].authenticate(in, group.group);
        assertEquals("replica0", sender.name());
        WireBundle bundle = (WireBundle) in.getProperty(WireBundle.PROPERTY);
        assertEquals(2, bundle.messages().size(), "the decoded bundle is handed on to the receiver");
        assertTrue(MacHeaderBlocks.all(in.getEnvelope(), AuthenticatorHeader.NAME).get(0).isProcessed(), "mustUnderstand is satisfied");
    }

    @Test
    void aMessageMacedForAnotherReceiverIsRefusedAsMisdirected() throws Exception {
        String toTwo = sent(nodes[0], 2, envelope(2, "urn:uuid:s-02", bundle()));
        SecurityRefusal e = refusedBy(1, toTwo);
        assertEquals(RefusalReason.MISDIRECTED, e.reason());
        assertTrue(e.getMessage().contains("made for replica2, received by replica1"), e.getMessage());
    }

    @Test
    void aMacMadeWithAnotherPairsKeyIsRefused() throws Exception {
        // node 2 sends to node 1 but claims to be node 0: node 1 checks with the key it shares with node 0
        String claimed = sent(nodes[2], 1, envelope(1, "urn:uuid:s-21", bundle()))
                .replace("from=\"replica2\"", "from=\"replica0\"");
        SecurityRefusal e = refusedBy(1, claimed);
        assertEquals(RefusalReason.MAC_MISMATCH, e.reason());
        assertTrue(e.getMessage().startsWith("BFT-WS security refused the message: MAC mismatch"), e.getMessage());
    }

    private static void assertTamperingIsCaught(UnaryOperator<String> tamper) throws Exception {
        String wire = sent(nodes[0], 1, envelope(1, "urn:uuid:s-01", bundle()));
        nodes[1].authenticate(received(wire), group.group); // untouched, it passes
        String changed = tamper.apply(wire);
        assertFalse(changed.equals(wire), "the tampering must change something");
        assertEquals(RefusalReason.MAC_MISMATCH, refusedBy(1, changed).reason());
    }

    @Test
    void aMessageMovedIntoAnotherSequenceIsRefused() throws Exception {
        assertTamperingIsCaught(w -> w.replace("urn:uuid:s-01", "urn:uuid:s-99"));
    }

    @Test
    void aMessageGivenAnotherMessageNumberIsRefused() throws Exception {
        assertTamperingIsCaught(w -> w.replace("<wsrm:MessageNumber>7<", "<wsrm:MessageNumber>8<"));
    }

    @Test
    void aChangedPiggyBackedAcknowledgementIsRefused() throws Exception {
        assertTamperingIsCaught(w -> w.replace("Upper=\"12\"", "Upper=\"13\""));
    }

    @Test
    void aChangedPbftFieldIsRefused() throws Exception {
        assertTamperingIsCaught(w -> w.replace("lastExecuted=\"4\"", "lastExecuted=\"5\""));
    }

    @Test
    void aSwappedEmbeddedSignatureIsRefused() throws Exception {
        assertTamperingIsCaught(w -> {
            int sig = w.indexOf("sig=\"") + 5;
            char c = w.charAt(sig);
            return w.substring(0, sig) + (c == 'A' ? 'B' : 'A') + w.substring(sig + 1);
        });
    }

    @Test
    void aChangedWsRmProtocolBodyIsRefused() throws Exception {
        String body = "<wsrm:TerminateSequence><wsrm:Identifier>urn:uuid:s-01</wsrm:Identifier>"
                + "<wsrm:LastMsgNumber>9</wsrm:LastMsgNumber></wsrm:TerminateSequence>";
        String wire = sent(nodes[0], 1, envelope(1, "urn:uuid:s-01", body));
        nodes[1].authenticate(received(wire), group.group);
        assertEquals(RefusalReason.MAC_MISMATCH, refusedBy(1, wire.replace(">9<", ">3<")).reason());
    }

    @Test
    void formattingThatNoReaderSeesDoesNotBreakTheMac() throws Exception {
        String wire = sent(nodes[0], 1, envelope(1, "urn:uuid:s-01", bundle()));
        // other prefixes and attribute order: what a different XML serializer could produce
        String reformatted = wire.replace("wsrm:", "rm:").replace("xmlns:wsrm=", "xmlns:rm=")
                .replace("Upper=\"12\" Lower=\"1\"", "Lower=\"1\" Upper=\"12\"");
        assertEquals("replica0", nodes[1].authenticate(received(reformatted), group.group).name());
    }

    @Test
    void anAuthenticatorNamingAPartyThatIsNotAPeerNodeIsRefused() throws Exception {
        String wire = sent(nodes[0], 1, envelope(1, "urn:uuid:s-01", bundle())).replace("from=\"replica0\"",
                "from=\"client1\"");
        assertEquals(RefusalReason.UNKNOWN_PEER, refusedBy(1, wire).reason());
    }

    @Test
    void theBundleItsSenderRecordedIsWhatTheMacCoversSoTheSenderNeedNotDecodeItsOwnXml() throws Exception {
        MessageContext out = new MessageContext();
        out.setEnvelope(parse(envelope(1, "urn:uuid:s-rec", bundle())));
        out.setTo(new EndpointReference(controlEndpoint(1)));
        org.apache.axiom.om.OMElement element = out.getEnvelope().getBody().getFirstElement();
        WireBundle other = new WireBundle(java.util.List.of(org.bftws.wire.WireMessage.of(
                new org.bftws.core.Status(0, 0, 5, 0), org.bftws.wire.SignatureSource.none())));
        // a sender that recorded another bundle than it wrote: the MAC covers the record, the receiver the XML
        out.setProperty(WireBundle.OUTGOING, new WireBundle.Sent(element, other));
        nodes[0].protect(out, group.group);
        assertEquals(RefusalReason.MAC_MISMATCH, refusedBy(1, text(out.getEnvelope())).reason());
    }

    @Test
    void anEnvelopeWithoutABodyIsRefusedAsMalformedNotCrashed() throws Exception {
        // found by MacAuthenticatorFuzzTest (crash-f4b451c4...): a header with an authenticator and no soapenv:Body
        String wire = sent(nodes[0], 1, envelope(1, "urn:uuid:s-01", bundle()));
        String bodiless = wire.substring(0, wire.indexOf("<soapenv:Body")) + "</soapenv:Envelope>";
        SecurityRefusal e = refusedBy(1, bodiless);
        assertEquals(RefusalReason.MALFORMED, e.reason());
        assertTrue(e.getMessage().contains("no soapenv:Body"), e.getMessage());
    }

    @Test
    void aMalformedAuthenticatorIsRefusedAsMalformed() throws Exception {
        String wire = sent(nodes[0], 1, envelope(1, "urn:uuid:s-01", bundle()));
        int start = wire.indexOf("\">", wire.indexOf("<mac:Authenticator")) + 2;
        String shortMac = wire.substring(0, start) + "AQID" + wire.substring(wire.indexOf("</mac:Authenticator>"));
        SecurityRefusal e = refusedBy(1, shortMac);
        assertEquals(RefusalReason.MALFORMED, e.reason());
        assertTrue(e.getMessage().contains("its MAC must be 32 bytes of HMAC-SHA256"), e.getMessage());
    }

    @Test
    void aMacedBundleThatCannotBeDecodedIsRefusedNamingTheElement() throws Exception {
        String wire = sent(nodes[0], 1, envelope(1, "urn:uuid:s-01", bundle())).replace("lastExecuted=\"4\"",
                "lastExecuted=\"four\"");
        SecurityRefusal e = refusedBy(1, wire);
        assertEquals(RefusalReason.MALFORMED_PBFT, e.reason());
        assertTrue(e.getMessage().contains("pbft:Messages/pbft:Status[1]: attribute lastExecuted='four'"), e.getMessage());
    }

    /** A client's request to the group, as the client's out-flow leaves it (one copy for every node). */
    static String clientRequest(String body) throws Exception {
        MessageContext out = new MessageContext();
        out.setEnvelope(parse(envelope(1, "urn:uuid:client-seq", body)));
        out.setTo(new EndpointReference(controlEndpoint(1)));
        client.protect(out, group.group);
        return text(out.getEnvelope());
    }

    @Test
    void aClientsRequestCarriesOneMacPerNodeAndEveryNodeAuthenticatesItAsTheClient() throws Exception {
        String wire = clientRequest("<ns:echo xmlns:ns=\"urn:e\">x</ns:echo>");
        assertTrue(wire.contains("<mac:RequestAuthenticator") && wire.contains("from=\"client1\""), wire);
        assertFalse(wire.contains("wsse:Security"), "no public-key signature on a request: " + wire);
        for (int i = 0; i < 4; i++) {
            assertTrue(wire.contains("to=\"replica" + i + "\""), wire);
            MessageContext in = received(wire);
            assertEquals("client1", nodes[i].authenticate(in, group.group).name(), "node " + i);
        }
    }

    @Test
    void aRequestWhoseEntryForANodeIsWrongIsRefusedThereAndAcceptedElsewhere() throws Exception {
        String wire = clientRequest("<ns:echo xmlns:ns=\"urn:e\">x</ns:echo>");
        int at = wire.indexOf("to=\"replica2\">") + "to=\"replica2\">".length();
        char c = wire.charAt(at);
        String oneBad = wire.substring(0, at) + (c == 'A' ? 'B' : 'A') + wire.substring(at + 1);
        assertEquals(RefusalReason.MAC_MISMATCH, refusedBy(2, oneBad).reason());
        assertEquals("client1", nodes[1].authenticate(received(oneBad), group.group).name());
    }

    @Test
    void aRequestChangedOnTheWayIsRefusedByEveryNode() throws Exception {
        String changed = clientRequest("<ns:echo xmlns:ns=\"urn:e\">pay 10</ns:echo>").replace("pay 10", "pay 99");
        for (int i = 0; i < 4; i++) {
            assertEquals(RefusalReason.MAC_MISMATCH, refusedBy(i, changed).reason(), "node " + i);
        }
    }

    @Test
    void aRequestAuthenticatorInTheNameOfANodeIsRefused() throws Exception {
        String wire = clientRequest("<ns:echo xmlns:ns=\"urn:e\">x</ns:echo>").replace("from=\"client1\"",
                "from=\"replica0\"");
        assertEquals(RefusalReason.UNKNOWN_PEER, refusedBy(1, wire).reason());
    }

    @Test
    void aRelayedRequestIsAuthenticatedByTheReceiversOwnEntryAndNamesItsSequencePosition() throws Exception {
        byte[] relayed = clientRequest("<ns:echo xmlns:ns=\"urn:e\">x</ns:echo>")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        MacAuthenticator.RelayedRequest r = nodes[3].authenticateRelayed(relayed, group.group).orElseThrow();
        assertEquals(new MacAuthenticator.RelayedRequest("client1", "urn:uuid:client-seq", 7), r);
    }

    @Test
    void aRelayedRequestWhoseEntryHereIsWrongIsNotAuthenticatedHere() throws Exception {
        String wire = clientRequest("<ns:echo xmlns:ns=\"urn:e\">x</ns:echo>");
        int at = wire.indexOf("to=\"replica3\">") + "to=\"replica3\">".length();
        char c = wire.charAt(at);
        byte[] oneBad = (wire.substring(0, at) + (c == 'A' ? 'B' : 'A') + wire.substring(at + 1))
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        SecurityRefusal e = assertThrows(SecurityRefusal.class, () -> nodes[3].authenticateRelayed(oneBad, group.group));
        assertEquals(RefusalReason.MAC_MISMATCH, e.reason());
        assertTrue(nodes[2].authenticateRelayed(oneBad, group.group).isPresent(), "node 2's entry is intact");
    }

    @Test
    void aRelayedSignedRequestIsNotJudgedByMacs() throws Exception {
        MessageContext out = new MessageContext();
        out.setEnvelope(parse(envelope(1, "urn:uuid:s-01", "<ns:echo xmlns:ns=\"urn:e\">x</ns:echo>")));
        out.setTo(new EndpointReference("http://127.0.0.1:9999/axis2/services/OtherGroup"));
        nodes[0].protect(out, group.group); // WS-Security signed
        byte[] signed = text(out.getEnvelope()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(nodes[1].authenticateRelayed(signed, group.group).isEmpty());
    }

    @Test
    void aNodesMessageToAnAddressOutsideItsGroupIsWsSecuritySigned() throws Exception {
        MessageContext out = new MessageContext();
        out.setEnvelope(parse(envelope(1, "urn:uuid:s-01", "<ns:echo xmlns:ns=\"urn:e\">x</ns:echo>")));
        out.setTo(new EndpointReference("http://127.0.0.1:9999/axis2/services/OtherGroup"));
        nodes[0].protect(out, group.group);
        String wire = text(out.getEnvelope());
        assertTrue(wire.contains("wsse:Security") && !wire.contains("mac:Authenticator"), wire);
        assertEquals("replica0", nodes[1].authenticate(received(wire), group.group).name());
    }

    /**
     * Found by fuzzing the mac profile's readers (docs/fuzzing.md): AXIOM parses a received envelope lazily, and a
     * byte that is not UTF-8 met only while the authenticator walks it came out as the parser's own unchecked
     * exception instead of a refusal.
     */
    @Test
    void aByteThatIsNotUtf8MetWhileTheEnvelopeIsWalkedIsRefusedAsMalformedNotThrownAsAParserException() throws Exception {
        String wire = sent(nodes[0], 1, envelope(1, "urn:uuid:s-01",
                "<ns:echo xmlns:ns=\"urn:e\">" + "x".repeat(12_000) + "</ns:echo>"));
        byte[] bytes = wire.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        bytes[wire.indexOf("</ns:echo>") - 100] = (byte) 0xb1; // in the body's text, past what the parser reads at first
        MessageContext in = new MessageContext();
        in.setEnvelope(org.apache.axiom.om.OMXMLBuilderFactory.createSOAPModelBuilder(
                new java.io.ByteArrayInputStream(bytes), "UTF-8").getSOAPEnvelope());
        in.setServerSide(true);
        SecurityRefusal e = assertThrows(SecurityRefusal.class, () -> nodes[1].authenticate(in, group.group));
        assertEquals(RefusalReason.MALFORMED, e.reason());
    }
}
