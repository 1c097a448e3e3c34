package org.bftws.axis2.client;

import org.bftws.voting.NodeReply;
import org.bftws.voting.SignedReplies;
import org.bftws.voting.VotingCounters;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.bftws.core.ReplyPolicy;
import org.bftws.core.RequestId;
import org.bftws.security.RefusalReason;
import org.bftws.wire.KeyedGroup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client Voter on crafted replies signed with keygen's keys: each reply is authenticated on its own against the
 * node its endpoint belongs to, compared by the canonical form of its body, and decided by f+1 (or the policy's
 * number of) identical replies from distinct replicas. Group: f=1, replica0..replica3, all executing.
 */
class VotingReplyCollectorTest {
    private static final RequestId REQUEST = new RequestId("urn:uuid:0e5c5a8e-seq", 7);
    private static final String A = "<e:echoResponse xmlns:e=\"urn:echo\"><e:item>pay 10</e:item></e:echoResponse>";
    private static final String B = "<e:echoResponse xmlns:e=\"urn:echo\"><e:item>pay 99</e:item></e:echoResponse>";

    @TempDir
    static Path dir;
    static KeyedGroup group;
    static SignedReplies replies;

    private final VotingCounters counters = new VotingCounters();
    private final List<VotingReplyCollector.Decision> decisions = new ArrayList<>();

    @BeforeAll
    static void keygen() {
        group = new KeyedGroup(dir.resolve("wssec"), "wssec", "EchoService", 9101, 9102, 9103, 9104);
        replies = new SignedReplies(group);
    }

    private VotingReplyCollector collector(ReplyPolicy policy) {
        return collector(group, policy);
    }

    private VotingReplyCollector collector(KeyedGroup g, ReplyPolicy policy) {
        List<URI> nodes = g.group.nodes().stream().map(n -> n.serviceEndpoint()).toList();
        return new VotingReplyCollector(REQUEST, policy, nodes, new ReplyAuthenticator(g.group, g.config.keys()),
                counters, decisions::add);
    }

    private static String body(NodeReply reply) {
        return new String(reply.body(), StandardCharsets.UTF_8);
    }

    @Test
    void twoFPlusOneTentativeRepliesOfOneViewDecideAndFewerKeepAskingThoseReplicas() throws Exception {
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        c.offer(replies.tentative(0, A, 2));
        c.offer(replies.tentative(1, A, 2));
        assertFalse(c.settled(), "two tentative replies are not 2f+1");
        assertTrue(c.wantsMoreFrom(replies.endpoint(0)), "replica0 is asked again for its answer after the commit");
        assertFalse(c.wantsMoreFrom(replies.endpoint(2)), "replica2 has not answered at all");
        c.offer(replies.tentative(2, A, 2));
        assertNotNull(c.await(0, TimeUnit.MILLISECONDS), c.whyUndecided());
        assertEquals(2, decisions.get(0).view());
        assertEquals(3, counters.tentative.get());
        assertFalse(c.wantsMoreFrom(replies.endpoint(0)), "decided: nobody is asked again");
    }

    @Test
    void aReplicasCommittedAnswerReplacesItsTentativeOneAndTheRepliesOfAllReplicasDoNotEndTheWait() throws Exception {
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        c.offer(replies.tentative(0, A, 1));
        c.offer(replies.tentative(1, A, 2));
        c.offer(replies.tentative(2, B, 2));
        c.offer(replies.tentative(3, A, 1));
        assertNull(c.await(50, TimeUnit.MILLISECONDS), "every replica answered, tentatively, without a quorum: still open");
        assertFalse(c.settled());
        c.offer(replies.from(0, A));
        assertFalse(c.settled(), "one committed A and tentative As of two views");
        c.offer(replies.from(2, A));
        NodeReply decided = c.await(0, TimeUnit.MILLISECONDS);
        assertNotNull(decided, c.whyUndecided());
        assertTrue(body(decided).contains("pay 10"));
    }

    @Test
    void fPlusOneIdenticalRepliesAreAcceptedAndTheAnswerIsOneOfTheAgreeingReplicasOwnReplies() throws Exception {
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        NodeReply r0 = replies.from(0, A);
        c.offer(r0);
        assertFalse(c.settled(), "one reply is not f+1");
        NodeReply r2 = replies.from(2, A);
        c.offer(r2);
        NodeReply decided = c.await(0, TimeUnit.MILLISECONDS);
        assertNotNull(decided, c.whyUndecided());
        assertTrue(decided.node().equals(r0.node()) || decided.node().equals(r2.node()));
        assertArrayEquals(decided.node().equals(r0.node()) ? r0.body() : r2.body(), decided.body());
        assertEquals(200, decided.status());
        assertEquals(List.of("replica0", "replica2"), decisions.get(0).agreeing());
        assertEquals(1, counters.decided.get());
        assertEquals(2, counters.counted.get());
    }

    @Test
    void aWrongReplyFromOneReplicaIsOutvoted() throws Exception {
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        c.offer(replies.from(3, B));
        c.offer(replies.from(0, A));
        assertFalse(c.settled(), "one A and one B decide nothing");
        c.offer(replies.from(1, A));
        NodeReply decided = c.await(0, TimeUnit.MILLISECONDS);
        assertTrue(body(decided).contains("pay 10"), body(decided));
        assertEquals(1, counters.dissenting.get(), "replica3's B is Byzantine evidence");
    }

    @Test
    void aReplySignedByAnotherReplicaThanTheEndpointsOwnerIsDroppedAndCountedSoItCannotVoteTwice() throws Exception {
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        // Byzantine replica3 answers B itself and also puts a B signed by itself where replica1's reply should be
        c.offer(replies.from(3, B));
        c.offer(replies.from(1, "replica3", B, null));
        assertFalse(c.settled(), "the second B must not count: replica3 cannot speak for replica1");
        assertEquals(1, counters.refusals().count(RefusalReason.MISDIRECTED));
        assertEquals(1, counters.dropped.get());
        c.offer(replies.from(0, A));
        c.offer(replies.from(2, A));
        assertTrue(body(c.await(0, TimeUnit.MILLISECONDS)).contains("pay 10"));
    }

    @Test
    void anAuthenticReplyToAnotherMessageIsDroppedSoRepliesReplayedIntoThisExchangeCannotVote() throws Exception {
        List<URI> nodes = group.group.nodes().stream().map(n -> n.serviceEndpoint()).toList();
        // SignedReplies' replies relate to urn:uuid:6d3c2b0a-...; this request's message id is another one
        VotingReplyCollector c = new VotingReplyCollector(REQUEST, "urn:uuid:this-request", ReplyPolicy.WEAK_QUORUM,
                nodes, new ReplyAuthenticator(group.group, group.config.keys()), counters, decisions::add);
        c.offer(replies.from(0, A));
        c.offer(replies.from(2, A));
        assertFalse(c.settled(), "two signed replies to another message are no answer to this one");
        assertEquals(2, counters.refusals().count(RefusalReason.MISDIRECTED));
        VotingReplyCollector same = new VotingReplyCollector(REQUEST, "urn:uuid:6d3c2b0a-1f4e-4a7b-9a77-5f3f0e2c1d11",
                ReplyPolicy.WEAK_QUORUM, nodes, new ReplyAuthenticator(group.group, group.config.keys()), counters,
                decisions::add);
        same.offer(replies.from(0, A));
        same.offer(replies.from(2, A));
        assertTrue(same.settled(), "the same replies answer the message they relate to");
    }

    @Test
    void aReplySignedByAClientIsDropped() throws Exception {
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        c.offer(replies.from(0, "client1", B, null));
        assertEquals(1, counters.refusals().count(RefusalReason.MISDIRECTED));
        assertEquals(0, counters.counted.get());
    }

    @Test
    void anUnsignedReplyIsDroppedAndCountedAsUnsigned() throws Exception {
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        c.offer(replies.at(1, SignedReplies.envelope(B, null)));
        c.offer(replies.from(2, B));
        assertFalse(c.settled(), "an unsigned B plus a signed B are one vote");
        assertEquals(1, counters.refusals().count(RefusalReason.UNSIGNED));
        assertTrue(c.whyUndecided().contains("replica1") && c.whyUndecided().contains("unsigned"),
                c.whyUndecided());
    }

    @Test
    void aReplyAlteredAfterItsReplicaSignedItIsDroppedAndCountedAsTampered() throws Exception {
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        String signed = replies.signed("replica1", SignedReplies.envelope(A, null));
        c.offer(replies.at(1, signed.replace("pay 10", "pay 99")));
        c.offer(replies.from(2, B));
        assertFalse(c.settled());
        assertEquals(1, counters.refusals().count(RefusalReason.TAMPERED));
    }

    @Test
    void aViewHeaderOutsideTheSignatureIsRefusedAsNotCovered() throws Exception {
        String signed = replies.signed("replica1", SignedReplies.envelope(A, null));
        String withView = signed.replace("</soapenv:Header>",
                "<bftws:View xmlns:bftws=\"urn:bftws:1\">9</bftws:View></soapenv:Header>");
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        c.offer(replies.at(1, withView));
        assertEquals(1, counters.refusals().count(RefusalReason.NOT_COVERED), c.whyUndecided());
    }

    @Test
    void theAcceptedViewIsOneThatFPlusOneAgreeingRepliesVouchForSoOneReplicaCannotInflateIt() throws Exception {
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        c.offer(replies.from(3, "replica3", A, 100));
        c.offer(replies.from(0, "replica0", A, 2));
        assertNotNull(c.await(0, TimeUnit.MILLISECONDS));
        assertEquals(2, decisions.get(0).view());
    }

    @Test
    void repliesThatDifferOnlyInPrefixesNamespaceDeclarationsAttributeOrderCommentsAndIndentationMatch()
            throws Exception {
        String xsi = "http://www.w3.org/2001/XMLSchema-instance";
        String xsd = "http://www.w3.org/2001/XMLSchema";
        String plain = "<e:r xmlns:e=\"urn:echo\" xmlns:x=\"urn:unused\" a=\"1\" b=\"2\"><e:item>x y</e:item>"
                + "<e:n xmlns:xsi=\"" + xsi + "\" xmlns:xs=\"" + xsd + "\" xsi:type=\"xs:int\">5</e:n></e:r>";
        String rewritten = "<r xmlns=\"urn:echo\" b=\"2\" a=\"1\">\n  <!-- indented -->\n"
                + "  <item>x <![CDATA[y]]></item>\n"
                + "  <n xmlns:i=\"" + xsi + "\" xmlns:s=\"" + xsd + "\" i:type=\"s:int\">5</n>\n</r>";
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        c.offer(replies.from(0, plain));
        c.offer(replies.from(1, rewritten));
        assertNotNull(c.await(0, TimeUnit.MILLISECONDS), c.whyUndecided());
    }

    @Test
    void whitespaceInsideATextValueIsDataAndMakesADifferentResult() throws Exception {
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        c.offer(replies.from(0, "<e:r xmlns:e=\"urn:echo\"><e:item>x y</e:item></e:r>"));
        c.offer(replies.from(1, "<e:r xmlns:e=\"urn:echo\"><e:item>x  y</e:item></e:r>"));
        c.offer(replies.from(2, "<e:r xmlns:e=\"urn:other\"><e:item>x y</e:item></e:r>"));
        assertFalse(c.settled(), "three different results");
    }

    @Test
    void withPolicyAllOneDifferingReplyMakesTheOutcomeInconclusiveNamingWhatCameFromWhom() throws Exception {
        VotingReplyCollector c = collector(ReplyPolicy.ALL);
        c.offer(replies.from(0, A));
        c.offer(replies.from(1, A));
        c.offer(replies.from(2, B));
        assertTrue(c.settled());
        assertNull(c.await(5, TimeUnit.SECONDS), "inconclusive returns at once, without waiting for replica3");
        String why = c.whyUndecided();
        assertTrue(why.startsWith("inconclusive") && why.contains("ALL needs 4"), why);
        assertTrue(why.contains("replica2 (" + replies.endpoint(2) + "): result") && why.contains("pay 99"), why);
        assertTrue(why.contains("replica3 (" + replies.endpoint(3) + "): no final reply yet"), why);
        assertEquals(1, counters.inconclusive.get());
    }

    @Test
    void identicalFaultsFromFPlusOneReplicasAreTheAnswerWhateverPrefixTheirCodeUses() throws Exception {
        String fault1 = "<soapenv:Fault><faultcode>soapenv:Client</faultcode><faultstring>no such account</faultstring>"
                + "</soapenv:Fault>";
        String fault2 = "<s:Fault xmlns:s=\"" + SignedReplies.SOAP11 + "\"><faultcode>s:Client</faultcode>"
                + "<faultstring>no such account</faultstring></s:Fault>";
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        c.offer(replies.from(0, fault1));
        c.offer(replies.from(1, fault2));
        NodeReply decided = c.await(0, TimeUnit.MILLISECONDS);
        assertNotNull(decided, c.whyUndecided());
        assertEquals(500, decided.status(), "Axis2 must raise the fault to the application");
    }

    @Test
    void aFaultWithAnotherCodeIsAnotherResult() throws Exception {
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        c.offer(replies.from(0, "<soapenv:Fault><faultcode>soapenv:Client</faultcode><faultstring>x</faultstring>"
                + "</soapenv:Fault>"));
        c.offer(replies.from(1, "<soapenv:Fault><faultcode>soapenv:Server</faultcode><faultstring>x</faultstring>"
                + "</soapenv:Fault>"));
        assertFalse(c.settled());
    }

    @Test
    void aReplyThatIsNotSoapIsDroppedAndCountedWithItsReason() throws Exception {
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        c.offer(new NodeReply(replies.endpoint(0), 200, SignedReplies.TEXT_XML,
                "<oops".getBytes(StandardCharsets.UTF_8)));
        c.offer(new NodeReply(replies.endpoint(1), 200, "text/html", "<html/>".getBytes(StandardCharsets.UTF_8)));
        assertEquals(2, counters.dropped.get());
        assertTrue(c.whyUndecided().contains("not a SOAP envelope") && c.whyUndecided().contains("text/html"),
                c.whyUndecided());
    }

    @Test
    void withoutEnoughRepliesTheCollectorWaitsUntilItsTimeoutAndSaysWhoIsMissing() throws Exception {
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        c.offer(replies.from(0, A));
        c.failed(replies.endpoint(1), "no final reply after 8 retransmissions");
        long start = System.nanoTime();
        assertNull(c.await(200, TimeUnit.MILLISECONDS));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(190));
        assertTrue(c.whyUndecided().contains("replica1") && c.whyUndecided().contains("8 retransmissions"),
                c.whyUndecided());
        assertEquals(1, counters.undecided.get());
    }

    @Test
    void whenEveryNodeIsDoneWithoutAgreementTheCollectorReturnsAtOnce() throws Exception {
        VotingReplyCollector c = collector(ReplyPolicy.WEAK_QUORUM);
        c.offer(replies.from(0, A));
        c.offer(replies.from(1, B));
        c.failed(replies.endpoint(2), "connection refused");
        c.offer(replies.at(3, SignedReplies.envelope(A, null)));
        long start = System.nanoTime();
        assertNull(c.await(10, TimeUnit.SECONDS));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(2));
    }

    @Test
    void withProfileNoneTheEndpointIdentifiesTheReplica() throws Exception {
        KeyedGroup open = new KeyedGroup(dir.resolve("none"), "none", "EchoService", 9101, 9102, 9103, 9104);
        VotingReplyCollector c = collector(open, ReplyPolicy.WEAK_QUORUM);
        c.offer(replies.at(0, SignedReplies.envelope(A, 4)));
        c.offer(replies.at(1, SignedReplies.envelope(A, 4)));
        assertNotNull(c.await(0, TimeUnit.MILLISECONDS), c.whyUndecided());
        assertEquals(4, decisions.get(0).view());
    }
}
