package org.bftws.axis2.client;

import org.bftws.voting.NodeReply;
import org.bftws.voting.SignedReplies;
import org.bftws.voting.VotingCounters;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.xml.namespace.QName;

import org.apache.axis2.context.MessageContext;
import org.apache.axis2.context.OperationContext;
import org.apache.axis2.description.InOutAxisOperation;
import org.bftws.axis2.security.RefusalAnswers;
import org.bftws.core.ReplyPolicy;
import org.bftws.core.RequestId;
import org.bftws.security.AuthenticatedParty;
import org.bftws.security.RefusalReason;
import org.bftws.security.SecurityRefusal;
import org.bftws.security.mac.MacAuthenticator;
import org.bftws.wire.KeyedGroup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code mac} profile's replies to clients: a replica answers a client it shares a key with (keygen makes one per
 * client and node) with an HMAC instead of an RSA signature, and the client's Voter checks each reply with the key it
 * shares with the node whose endpoint the reply came from. Signed replies stay acceptable.
 */
class MacRepliesTest {
    private static final RequestId REQUEST = new RequestId("urn:uuid:mac-replies", 3);
    private static final String A = "<e:echoResponse xmlns:e=\"urn:echo\"><e:item>pay 10</e:item></e:echoResponse>";

    @TempDir
    static Path dir;
    static KeyedGroup group;
    static SignedReplies signed;
    static MacAuthenticator client;

    private final VotingCounters counters = new VotingCounters();
    private final List<VotingReplyCollector.Decision> decisions = new ArrayList<>();

    @BeforeAll
    static void keygen() {
        group = new KeyedGroup(dir, "mac", "EchoService", 9201, 9202, 9203, 9204);
        signed = new SignedReplies(group);
        client = node("client1");
    }

    static MacAuthenticator node(String party) {
        return new MacAuthenticator(group.config, party, g -> group.wsSecurity(party));
    }

    /** Makes {@code reply} the answer to a request of client1's that its signature authenticated. */
    static void answeringClient1(MessageContext reply, KeyedGroup keyed) throws Exception {
        MessageContext request = new MessageContext();
        request.setServerSide(true);
        request.setProperty(AuthenticatedParty.PROPERTY,
                new AuthenticatedParty("client1", keyed.trust().registered("client1").orElseThrow()));
        OperationContext operation = new OperationContext(new InOutAxisOperation(new QName("echo")), null);
        operation.addMessageContext(request);
        operation.addMessageContext(reply);
        reply.setOperationContext(operation);
    }

    /** What replica {@code node} puts on the wire answering a request that client1's signature authenticated. */
    static String macedReply(int node, String body) throws Exception {
        MessageContext reply = new MessageContext();
        reply.setServerSide(true);
        reply.setEnvelope(SignedReplies.parse(SignedReplies.envelope(body, 4)));
        answeringClient1(reply, group);
        node("replica" + node).protect(reply, group.group);
        return SignedReplies.text(reply.getEnvelope());
    }

    private VotingReplyCollector collector() {
        List<URI> nodes = group.group.nodes().stream().map(n -> n.serviceEndpoint()).toList();
        return new VotingReplyCollector(REQUEST, ReplyPolicy.WEAK_QUORUM, nodes,
                new ReplyAuthenticator(group.group, group.config.keys(), client), counters, decisions::add);
    }

    @Test
    void aReplicaAnswersAClientItSharesAKeyWithWithAnHmacForThatClientAndNoSignature() throws Exception {
        String wire = macedReply(1, A);
        assertTrue(wire.contains("mac:Authenticator") && wire.contains("from=\"replica1\"")
                && wire.contains("to=\"client1\""), wire);
        assertFalse(wire.contains("wsse:Security"), "no RSA signature per reply: " + wire);
        assertEquals("replica1", client.authenticateReply(SignedReplies.parse(wire), wire.getBytes(java.nio.charset.StandardCharsets.UTF_8), null, group.group).orElseThrow());
    }

    @Test
    void unsignedFaultsFromEveryNodeAreNeverCountedSoNothingIsDecidedAndNoSequenceEnds() throws Exception {
        VotingReplyCollector c = collector();
        // what replicas answer a request they refused, and unsigned faults that say the sequence ended
        byte[] refusal = RefusalAnswers.envelope(true, RefusalReason.MAC_MISMATCH);
        String terminated = "<soapenv:Envelope xmlns:soapenv=\"" + SignedReplies.SOAP11 + "\"><soapenv:Body>"
                + "<soapenv:Fault><faultcode xmlns:wsrm=\"" + org.bftws.rm.Wsrm.NS + "\">wsrm:SequenceTerminated"
                + "</faultcode><faultstring>the sequence ended</faultstring></soapenv:Fault></soapenv:Body>"
                + "</soapenv:Envelope>";
        NodeReply ended = new NodeReply(signed.endpoint(2), 500, SignedReplies.TEXT_XML,
                terminated.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(ResponseInspector.endsSequence(ended), "decided, this fault would end the client's sequence");
        c.offer(new NodeReply(signed.endpoint(0), 500, SignedReplies.TEXT_XML, refusal));
        c.offer(new NodeReply(signed.endpoint(1), 500, SignedReplies.TEXT_XML, refusal));
        c.offer(ended);
        c.offer(new NodeReply(signed.endpoint(3), 500, SignedReplies.TEXT_XML, ended.body()));
        assertNull(c.await(0, TimeUnit.MILLISECONDS), "nothing decided: " + c.whyUndecided());
        assertTrue(decisions.isEmpty(), "no decided reply, so MulticastSender ends no sequence");
        assertEquals(0, counters.counted.get(), "no unsigned fault counts as a vote");
        assertEquals(4, counters.refusals().count(RefusalReason.UNSIGNED));
        assertTrue(c.whyUndecided().contains("unsigned"), c.whyUndecided());
        assertTrue(c.whyUndecided().contains("unauthenticated, it said: fault 'BFT-WS security refused the message: "
                + "MAC mismatch'"), "a client with the wrong keys learns why, as an unproven claim: " + c.whyUndecided());
    }

    @Test
    void aNodeRefusesToSignAFaultToARequestNobodyAuthenticated() throws Exception {
        MessageContext request = new MessageContext();
        request.setServerSide(true); // refused by authentication: no AuthenticatedParty
        OperationContext operation = new OperationContext(new InOutAxisOperation(new QName("echo")), null);
        operation.addMessageContext(request);
        MessageContext fault = new MessageContext();
        fault.setServerSide(true);
        fault.setFLOW(MessageContext.OUT_FAULT_FLOW);
        fault.setProcessingFault(true);
        fault.setEnvelope(SignedReplies.parse(new String(RefusalAnswers.envelope(true, RefusalReason.UNSIGNED),
                java.nio.charset.StandardCharsets.UTF_8)));
        operation.addMessageContext(fault);
        fault.setOperationContext(operation);
        assertThrows(IllegalStateException.class, () -> node("replica1").protect(fault, group.group),
                "a public-key signature for anybody who can reach the port must not be possible");
        assertFalse(SignedReplies.text(fault.getEnvelope()).contains("wsse:Security"));
    }

    @Test
    void fPlusOneMacAuthenticatedRepliesDecideAndNameTheirReplicas() throws Exception {
        VotingReplyCollector c = collector();
        c.offer(signed.at(0, macedReply(0, A)));
        assertFalse(c.settled(), "one reply is not f+1");
        c.offer(signed.at(2, macedReply(2, A)));
        assertNotNull(c.await(0, TimeUnit.MILLISECONDS), c.whyUndecided());
        assertEquals(List.of("replica0", "replica2"), decisions.get(0).agreeing());
        assertEquals(4, decisions.get(0).view(), "the view header is covered by the MAC and read as usual");
    }

    @Test
    void aMacedReplyPutWhereAnotherReplicasReplyShouldBeIsDroppedSoItCannotVoteTwice() throws Exception {
        VotingReplyCollector c = collector();
        c.offer(signed.at(3, macedReply(3, A)));
        c.offer(signed.at(1, macedReply(3, A)));
        assertFalse(c.settled(), "replica3 cannot speak for replica1");
        assertEquals(1, counters.refusals().count(RefusalReason.MISDIRECTED));
    }

    @Test
    void aMacedReplyAlteredOnTheWayIsDroppedAsAMacMismatch() throws Exception {
        VotingReplyCollector c = collector();
        c.offer(signed.at(1, macedReply(1, A).replace("pay 10", "pay 99")));
        c.offer(signed.at(1, macedReply(1, A).replace("bftws:View xmlns:bftws=\"urn:bftws:1\">4<",
                "bftws:View xmlns:bftws=\"urn:bftws:1\">9<")));
        assertEquals(2, counters.refusals().count(RefusalReason.MAC_MISMATCH));
        assertEquals(0, counters.counted.get());
    }

    @Test
    void aReplyWhoseCharsetWasChangedOnTheWayIsNotCountedWithItsCharactersReadAnotherWay() throws Exception {
        String euros = "<e:echoResponse xmlns:e=\"urn:echo\"><e:item>pay 10 \u20ac</e:item></e:echoResponse>";
        byte[] utf8 = macedReply(1, euros).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        NodeReply relabelled = new NodeReply(signed.at(1, "").node(), 200, "text/xml; charset=ISO-8859-1", utf8);
        VotingReplyCollector c = collector();
        c.offer(relabelled);
        assertEquals(1, counters.refusals().count(RefusalReason.MAC_MISMATCH),
                "the MAC is checked over what the Voter read (Latin-1), not over a second, UTF-8 reading");
        assertEquals(0, counters.counted.get());

        NodeReply genuine = new NodeReply(relabelled.node(), 200, "text/xml; charset=UTF-8", utf8);
        collector().offer(genuine);
        assertEquals(1, counters.counted.get(), "the same bytes under their own charset count");
    }

    @Test
    void aReplyMacedForTheClientConvincesNoOtherParty() throws Exception {
        String wire = macedReply(1, A);
        SecurityRefusal e = org.junit.jupiter.api.Assertions.assertThrows(SecurityRefusal.class,
                () -> node("replica2").authenticateReply(SignedReplies.parse(wire), wire.getBytes(java.nio.charset.StandardCharsets.UTF_8), null, group.group));
        assertEquals(RefusalReason.MISDIRECTED, e.reason());
    }

    @Test
    void aSignedReplyStillCountsForAClientThatSharesKeys() throws Exception {
        VotingReplyCollector c = collector();
        c.offer(signed.from(0, A));
        c.offer(signed.at(2, macedReply(2, A)));
        assertNotNull(c.await(0, TimeUnit.MILLISECONDS), c.whyUndecided());
        assertEquals(List.of("replica0", "replica2"), decisions.get(0).agreeing());
    }
}
