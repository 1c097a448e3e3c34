package org.bftws.axis2.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.context.MessageContext;
import org.bftws.axis2.delivery.ReplyCapture;
import org.bftws.security.AuthenticatedParty;
import org.bftws.security.ReceivedBytes;
import org.bftws.security.RefusalReason;
import org.bftws.security.SecurityRefusal;
import org.bftws.security.SignedEnvelope;
import org.bftws.security.mac.MacAuthenticator;
import org.bftws.voting.SignedReplies;
import org.bftws.wire.KeyedGroup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code mac} profile's bytes form: when the transport sends a message's bytes as they are (the client's
 * multicast, a replica's reply capture), a client's request authenticator and a replica's reply MAC cover those bytes,
 * with the MAC values blanked, so that a receiver checks them with no parse of the body and no canonical walk; a
 * relayed request is checked on the same bytes. Any changed byte is refused.
 */
class MacOverBytesTest {
    private static final String ECHO = "<e:echo xmlns:e=\"urn:echo\"><e:item>pay 10 to 4711</e:item>"
            + "<e:item a=\"1\">&lt;b&gt;</e:item></e:echo>";

    @TempDir
    static Path dir;
    static KeyedGroup group;
    static ConfigurationContext axis;

    @BeforeAll
    static void keygen() throws Exception {
        group = new KeyedGroup(dir, "mac", "EchoService", 9301, 9302, 9303, 9304);
        axis = ConfigurationContextFactory.createEmptyConfigurationContext();
    }

    static MacAuthenticator party(String name) {
        return new MacAuthenticator(group.config, name, g -> group.wsSecurity(name));
    }

    /** A message context whose transport sends the bytes the security handler leaves, as the module's senders do. */
    private static MessageContext outgoing(String envelope, boolean serverSide) throws Exception {
        MessageContext mc = new MessageContext();
        mc.setConfigurationContext(axis);
        mc.setEnvelope(SignedReplies.parse(envelope));
        mc.setServerSide(serverSide);
        mc.setTransportOut(new ReplyCapture().description());
        mc.setProperty(SignedEnvelope.SIGNED_LAST, Boolean.TRUE);
        return mc;
    }

    /** What client1 sends the group for {@code body}: message 7 of a sequence it owns. */
    static byte[] request(String body) throws Exception {
        String seq = org.bftws.rm.SequenceIds.random("client1");
        MessageContext mc = outgoing("<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                + "<soapenv:Header><wsa:To xmlns:wsa=\"http://www.w3.org/2005/08/addressing\">"
                + group.group.nodes().get(0).serviceEndpoint() + "</wsa:To>"
                + "<wsrm:Sequence xmlns:wsrm=\"http://docs.oasis-open.org/ws-rx/wsrm/200702\"><wsrm:Identifier>" + seq
                + "</wsrm:Identifier><wsrm:MessageNumber>7</wsrm:MessageNumber></wsrm:Sequence></soapenv:Header>"
                + "<soapenv:Body>" + body + "</soapenv:Body></soapenv:Envelope>", false);
        mc.setTo(new EndpointReference(group.group.nodes().get(0).serviceEndpoint().toString()));
        party("client1").protect(mc, group.group);
        return SignedEnvelope.bytesToSend(mc).orElseThrow(() -> new AssertionError("no bytes form"));
    }

    /** {@code bytes} as replica {@code node} receives them, its builder keeping the bytes. */
    private static AuthenticatedParty arrive(String node, byte[] bytes) throws Exception {
        MessageContext in = new MessageContext();
        in.setServerSide(true);
        in.setEnvelope(OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(bytes), "UTF-8")
                .getSOAPEnvelope());
        in.setProperty(ReceivedBytes.PROPERTY, bytes);
        return party(node).authenticate(in, group.group);
    }

    /** What replica1 answers client1's request with: the bytes its reply capture sends. */
    static byte[] reply(String body) throws Exception {
        MessageContext reply = outgoing(SignedReplies.envelope(body, 4), true);
        MacRepliesTest.answeringClient1(reply, group);
        party("replica1").protect(reply, group.group);
        return SignedEnvelope.bytesToSend(reply).orElseThrow(() -> new AssertionError("no bytes form"));
    }

    private static Optional<String> clientChecks(byte[] reply) throws SecurityRefusal {
        SOAPEnvelope env = OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(reply), "UTF-8")
                .getSOAPEnvelope();
        return party("client1").authenticateReply(env, reply, "UTF-8", group.group);
    }

    @Test
    void aClientsRequestAuthenticatorCoversItsBytesAndEveryNodeChecksItsOwnEntryOnArrival() throws Exception {
        byte[] sent = request(ECHO);
        String text = new String(sent, StandardCharsets.UTF_8);
        assertTrue(text.contains("covers=\"bytes\""), text);
        assertFalse(text.contains(new String(java.util.Base64.getEncoder().encode(new byte[32]),
                StandardCharsets.US_ASCII)), "every placeholder was replaced by a MAC: " + text);
        for (int node = 0; node < 4; node++) {
            assertEquals("client1", arrive("replica" + node, sent).name());
        }
    }

    @Test
    void aRelayedRequestIsCheckedOnItsBytesAndNamesItsSequencePosition() throws Exception {
        byte[] sent = request(ECHO);
        MacAuthenticator.RelayedRequest relayed = party("replica2").authenticateRelayed(sent, group.group)
                .orElseThrow();
        assertEquals("client1", relayed.client());
        assertEquals(7, relayed.messageNumber());
    }

    @Test
    void aRequestWithAnyOneByteChangedOutsideOtherNodesEntriesIsRefused() throws Exception {
        byte[] sent = request(ECHO);
        String text = new String(sent, StandardCharsets.UTF_8);
        int accepted = 0;
        for (int at = 0; at < sent.length; at++) {
            String node = "replica" + (at % 4);
            if (insideAnotherNodesEntry(text, at, node)) {
                continue; // each node checks its own entry only (PBFT's authenticator); a changed one fails there
            }
            byte[] tampered = sent.clone();
            tampered[at] = (byte) (tampered[at] == 'x' ? 'y' : 'x');
            try {
                arrive(node, tampered);
                accepted++;
            } catch (SecurityRefusal expected) {
                // MAC_MISMATCH mostly; MALFORMED where the change breaks the header itself
            } catch (RuntimeException parserRefusal) {
                // not XML any more: the parser refuses before the MAC is reached
            }
        }
        assertEquals(0, accepted, "tampered copies accepted");
    }

    private static boolean insideAnotherNodesEntry(String sent, int at, String node) {
        for (int k = 0; k < 4; k++) {
            String open = "<mac:Entry to=\"replica" + k + "\">";
            int start = sent.indexOf(open) + open.length();
            int end = sent.indexOf("</mac:Entry>", start);
            if (!("replica" + k).equals(node) && at >= start && at < end) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aRequestWhoseBytesAreNotPlainUtf8IsRefusedAsMalformed() throws Exception {
        byte[] sent = request(ECHO);
        MessageContext in = new MessageContext();
        in.setServerSide(true);
        in.setEnvelope(OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(sent), "UTF-8")
                .getSOAPEnvelope());
        in.setProperty(ReceivedBytes.PROPERTY, sent);
        in.setProperty(org.apache.axis2.Constants.Configuration.CHARACTER_SET_ENCODING, "ISO-8859-1");
        SecurityRefusal e = assertThrows(SecurityRefusal.class, () -> party("replica0").authenticate(in,
                group.group));
        assertEquals(RefusalReason.MALFORMED, e.reason());
    }

    @Test
    void aReplicasReplyMacCoversTheBytesItsCaptureSends() throws Exception {
        byte[] sent = reply("<e:echoResponse xmlns:e=\"urn:echo\"><e:item>pay 10</e:item></e:echoResponse>");
        assertTrue(new String(sent, StandardCharsets.UTF_8).contains("covers=\"bytes\""));
        assertEquals("replica1", clientChecks(sent).orElseThrow());
    }

    @Test
    void aReplyWithAnyOneByteChangedIsRefused() throws Exception {
        byte[] sent = reply("<e:echoResponse xmlns:e=\"urn:echo\"><e:item>pay 10</e:item></e:echoResponse>");
        int accepted = 0;
        for (int at = 0; at < sent.length; at++) {
            byte[] tampered = sent.clone();
            tampered[at] = (byte) (tampered[at] == 'x' ? 'y' : 'x');
            try {
                if (clientChecks(tampered).isPresent()) {
                    accepted++; // without a MAC header at all it would have to be WS-Security signed
                }
            } catch (SecurityRefusal | RuntimeException expected) {
                // refused by the MAC, or no longer XML
            }
        }
        assertEquals(0, accepted, "tampered replies accepted");
    }
}
