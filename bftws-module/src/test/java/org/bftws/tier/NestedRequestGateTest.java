package org.bftws.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.bftws.config.Configuration;
import org.bftws.config.GroupConfig;
import org.bftws.config.NodeConfig;
import org.bftws.config.NodeRole;
import org.bftws.config.ProtocolConfig;
import org.bftws.config.SecurityConfig;
import org.junit.jupiter.api.Test;

/** The callee's gate for nested requests (paper 3.4), with a relay group of four replicas (f = p = 1). */
class NestedRequestGateTest {

    static final URI CALLEE = URI.create("http://backend.bftws.test/axis2/services/EchoService");
    static final GroupConfig RELAY = group("EchoRelayService", "http://relay.bftws.test/axis2/services/EchoRelayService",
            "relay");
    static final String SEQ = NestedSequences.sequenceId(RELAY, CALLEE);

    final NestedRequestGate<String> gate = new NestedRequestGate<>(CALLEE, List.of(RELAY), 16);

    static GroupConfig group(String service, String endpoint, String prefix) {
        List<NodeConfig> nodes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            nodes.add(new NodeConfig(i, prefix + i, URI.create("http://127.0.0.1:" + (9000 + i) + "/s"),
                    URI.create("http://127.0.0.1:" + (9000 + i) + "/c"), NodeRole.AGREE_EXECUTE, null));
        }
        return new GroupConfig(service, URI.create(endpoint), 1, Configuration.I, true, SecurityConfig.none(),
                ProtocolConfig.defaults(), nodes, null);
    }

    static byte[] body(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aNestedRequestIsAdmittedOnlyWithTheSecondIdenticalCopyFromADistinctCallerReplica() {
        assertInstanceOf(NestedRequestGate.Held.class, gate.admit(SEQ, 1, "relay0", body("echo a"), "copy0", 0));
        // the same replica again (a retransmission) does not count twice
        assertInstanceOf(NestedRequestGate.Held.class, gate.admit(SEQ, 1, "relay0", body("echo a"), "copy0'", 1));
        assertEquals(2, gate.heldCopies(), "both exchanges of relay0's copy are held");
        NestedRequestGate.Verdict<String> v = gate.admit(SEQ, 1, "relay2", body("echo a"), "copy2", 2);
        NestedRequestGate.Admitted<String> a = assertInstanceOf(NestedRequestGate.Admitted.class, v);
        assertEquals(List.of("copy0", "copy0'"), a.join(), "every held identical copy gets the reply");
        assertEquals(List.of(), a.refused());
        assertEquals(0, gate.heldCopies(), "the gate holds none once they joined the admitted one");
    }

    @Test
    void aDifferingCopyFromAFaultyCallerReplicaSentFirstIsNeverAdmittedAndDoesNotBlockTheCorrectOne() {
        assertInstanceOf(NestedRequestGate.Held.class, gate.admit(SEQ, 1, "relay3", body("evil"), "bad", 0));
        assertInstanceOf(NestedRequestGate.Held.class, gate.admit(SEQ, 1, "relay0", body("echo a"), "copy0", 1));
        NestedRequestGate.Admitted<String> a = assertInstanceOf(NestedRequestGate.Admitted.class,
                gate.admit(SEQ, 1, "relay1", body("echo a"), "copy1", 2));
        assertEquals(List.of("copy0"), a.join());
        assertEquals(List.of("bad"), a.refused(), "the differing copy is answered with a fault");
        // later copies: the identical one takes the ordinary path (answered with the reply), a differing one is refused
        assertInstanceOf(NestedRequestGate.AlreadyAdmitted.class, gate.admit(SEQ, 1, "relay2", body("echo a"), "c2", 3));
        assertInstanceOf(NestedRequestGate.Refused.class, gate.admit(SEQ, 1, "relay3", body("evil"), "bad'", 4));
    }

    @Test
    void aFaultyCallerReplicaAloneCanNeverGetARequestAdmitted() {
        for (int n = 1; n <= 5; n++) {
            assertInstanceOf(NestedRequestGate.Held.class, gate.admit(SEQ, n, "relay3", body("evil " + n), "bad", n));
            NestedRequestGate.Verdict<String> again = gate.admit(SEQ, n, "relay3", body("evil' " + n), "bad", n);
            assertInstanceOf(NestedRequestGate.Refused.class, again, "a replica cannot change its copy");
        }
    }

    @Test
    void copiesFromNodesThatAreNotCallerReplicasOrOnOtherSequencesAreRefused() {
        NestedRequestGate.Refused<String> stranger = assertInstanceOf(NestedRequestGate.Refused.class,
                gate.admit(SEQ, 1, "client1", body("echo a"), "x", 0));
        assertTrue(stranger.reason().contains("not a replica of group EchoRelayService"), stranger.reason());
        assertInstanceOf(NestedRequestGate.Refused.class, gate.admit(SEQ, 1, null, body("echo a"), "x", 0));
        NestedRequestGate.Refused<String> ownSequence = assertInstanceOf(NestedRequestGate.Refused.class,
                gate.admit("urn:uuid:another", 1, "relay1", body("echo a"), "x", 0));
        assertTrue(ownSequence.reason().contains("virtual sequence " + SEQ), ownSequence.reason());
        assertTrue(gate.concerns("urn:uuid:another", "RELAY1"), "names compare ignoring case");
        assertTrue(!gate.concerns("urn:uuid:another", "client1"), "ordinary clients are not the gate's business");
    }

    @Test
    void aCopyHeldTooLongIsLetGoButStaysCountedSoTheQuorumStillForms() {
        gate.admit(SEQ, 1, "relay0", body("echo a"), "copy0", 0);
        assertEquals(List.of("copy0"), gate.expire(10));
        assertEquals(List.of(), gate.expire(20), "answered once");
        NestedRequestGate.Admitted<String> a = assertInstanceOf(NestedRequestGate.Admitted.class,
                gate.admit(SEQ, 1, "relay1", body("echo a"), "copy1", 30));
        assertEquals(List.of(), a.join());
    }

    @Test
    void copiesBeyondTheWindowAreRefusedUntilEarlierNumbersAreAdmitted() {
        assertInstanceOf(NestedRequestGate.Refused.class, gate.admit(SEQ, 17, "relay0", body("x"), "c", 0));
        assertInstanceOf(NestedRequestGate.Held.class, gate.admit(SEQ, 16, "relay0", body("x"), "c", 0));
    }

    @Test
    void everyCallerReplicaDerivesTheSameSequenceAndMessageIdForTheKthNestedCall() {
        GroupConfig sameGroupReadElsewhere = group("EchoRelayService",
                "http://relay.bftws.test/axis2/services/EchoRelayService", "relay");
        assertEquals(SEQ, NestedSequences.sequenceId(sameGroupReadElsewhere, CALLEE));
        assertEquals(NestedSequences.messageId(SEQ, 7), NestedSequences.messageId(SEQ, 7));
        assertNotEquals(NestedSequences.messageId(SEQ, 7), NestedSequences.messageId(SEQ, 8));
        assertNotEquals(SEQ, NestedSequences.sequenceId(group("Other", "http://other.test/s", "o"), CALLEE),
                "another caller group gets another virtual sequence");
        assertTrue(NestedSequences.messageId(SEQ, 1).matches("urn:uuid:[0-9a-f-]{36}"));
    }

    @Test
    void aRelayedCopyCountsAsAdmittedOnlyWithTheContentTheQuorumSentAndOnlyOnceTheGateAdmittedIt() {
        assertTrue(!gate.admittedWith(SEQ, 1, named(SEQ, 1, "echo a")), "nothing admitted yet");
        gate.admit(SEQ, 1, "relay0", body("echo a"), "copy0", 0);
        assertTrue(!gate.admittedWith(SEQ, 1, named(SEQ, 1, "echo a")), "one copy is no quorum");
        gate.admit(SEQ, 1, "relay1", body("echo a"), "copy1", 1);
        assertTrue(gate.admittedWith(SEQ, 1, named(SEQ, 1, "echo a")),
                "any caller replica's copy with the admitted content (say relay3's, fetched from the primary)");
        assertTrue(!gate.admittedWith(SEQ, 1, named(SEQ, 1, "evil")), "a copy with other content is not the request");
        assertTrue(!gate.admittedWith(SEQ, 2, named(SEQ, 2, "echo a")), "nor is the content under another number");
        assertTrue(!gate.admittedWith("another-sequence", 1, named("another-sequence", 1, "echo a")));
    }

    @Test
    void aGateThatRestartedCountsCopiesFromTheNumbersItsReplicaExecutedNotFromOne() {
        // a callee replica restarted: its gate is new, while the callers are at nested call 100
        assertInstanceOf(NestedRequestGate.Refused.class, gate.admit(SEQ, 100, "relay0", body("x"), "early", 0));
        gate.executed(SEQ, 99, named(SEQ, 99, "the 99th call"));
        assertInstanceOf(NestedRequestGate.Held.class, gate.admit(SEQ, 100, "relay0", body("x"), "c0", 1));
        assertInstanceOf(NestedRequestGate.Admitted.class, gate.admit(SEQ, 100, "relay1", body("x"), "c1", 2));
        assertInstanceOf(NestedRequestGate.Refused.class, gate.admit(SEQ, 98, "relay2", body("y"), "late", 3),
                "a copy of a number executed before is not counted again");
    }

    @Test
    void copiesStillHeldWhenTheGroupExecutesTheirNumberGetItsReplyIfIdenticalAndAFaultOtherwise() {
        gate.admit(SEQ, 1, "relay0", body("echo a"), "same", 0);
        gate.admit(SEQ, 1, "relay3", body("evil"), "differing", 1);
        NestedRequestGate.Settled<String> s = gate.executed(SEQ, 1, named(SEQ, 1, "echo a"));
        assertEquals(List.of("same"), s.join());
        assertEquals(List.of("differing"), s.refused());
        assertTrue(gate.admittedWith(SEQ, 1, named(SEQ, 1, "echo a")), "its content is now known as the executed one");
        assertInstanceOf(NestedRequestGate.AlreadyAdmitted.class, gate.admit(SEQ, 1, "relay1", body("echo a"), "l", 2),
                "a later identical copy takes the ordinary path (the reply cache)");
    }

    /** The name a request with this content has in ordering (see Request.identified). */
    private static org.bftws.core.Digest named(String seq, long n, String content) {
        return org.bftws.core.Request.identityDigest(new org.bftws.core.RequestId(seq, n), body(content));
    }
}
