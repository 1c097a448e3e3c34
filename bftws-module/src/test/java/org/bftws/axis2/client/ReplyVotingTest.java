package org.bftws.axis2.client;

import org.bftws.voting.FirstReply;
import org.bftws.voting.Target;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;

import org.apache.axis2.context.MessageContext;
import org.bftws.config.GroupConfig;
import org.bftws.core.ReplyPolicy;
import org.bftws.core.RequestId;
import org.bftws.rm.OutboundSequence;
import org.bftws.wire.KeyedGroup;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which collector a message gets, with which policy and request id. */
class ReplyVotingTest {
    @TempDir
    static Path dir;
    static KeyedGroup group;

    @BeforeAll
    static void config() {
        group = new KeyedGroup(dir, "none", "EchoService", 9201, 9202, 9203, 9204);
    }

    private static MessageContext message(Object policy) {
        MessageContext mc = new MessageContext();
        if (policy != null) {
            mc.getOptions().setProperty(ReplyVoting.REPLY_POLICY, policy);
        }
        return mc;
    }

    @Test
    void theReplyPolicyOptionTakesTheEnumOrItsNameInAnyCaseAndDefaultsToFPlusOne() {
        GroupConfig g = group.group;
        assertEquals(ReplyPolicy.WEAK_QUORUM, ReplyVoting.policyOf(message(null), g));
        assertEquals(ReplyPolicy.ALL, ReplyVoting.policyOf(message(ReplyPolicy.ALL), g));
        assertEquals(ReplyPolicy.STRONG_QUORUM, ReplyVoting.policyOf(message(" strong_quorum "), g));
    }

    @Test
    void aGroupWithBftSwitchedOffTakesTheFirstAuthenticReplyByDefault() {
        GroupConfig g = group.group;
        GroupConfig off = new GroupConfig(g.service(), g.endpoint(), g.f(), g.configuration(), false, g.security(),
                g.protocol(), g.nodes(), null);
        assertEquals(ReplyPolicy.FIRST, ReplyVoting.policyOf(message(null), off));
    }

    @Test
    void anUnknownPolicyIsRefusedNamingTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ReplyVoting.policyOf(message("MAJORITY"), group.group));
        assertTrue(e.getMessage().contains("MAJORITY") && e.getMessage().contains("WEAK_QUORUM"), e.getMessage());
    }

    @Test
    void theRequestIdIsTheMessagesSequenceAndNumber() {
        MessageContext mc = message(null);
        mc.setProperty(MulticastSender.SEQUENCE, new OutboundSequence("urn:uuid:s-1", "u"));
        mc.setProperty(MulticastSender.MESSAGE_NUMBER, 12L);
        assertEquals(new RequestId("urn:uuid:s-1", 12), ReplyVoting.requestOf(mc));
    }

    @Test
    void aGroupEndpointGetsTheVoterAndADirectEndpointTheFirstReply() {
        ReplyVoting voting = new ReplyVoting(group.config);
        assertInstanceOf(VotingReplyCollector.class, voting.collectorFor(Target.group(group.group), message(null)));
        assertInstanceOf(FirstReply.class,
                voting.collectorFor(Target.direct(URI.create("http://127.0.0.1:1/x")), message(null)));
        assertTrue(voting.lastView(group.group).isEmpty());
    }
}
