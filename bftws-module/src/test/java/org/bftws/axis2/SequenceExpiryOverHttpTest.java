package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import org.bftws.axis2.node.BftwsNode;
import static org.bftws.axis2.RawSequenceRequests.append;
import static org.bftws.axis2.RawSequenceRequests.manager;
import static org.bftws.axis2.RawSequenceRequests.post;
import static org.bftws.axis2.RawSequenceRequests.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.axis2.client.MulticastSender;
import org.bftws.rm.OutboundSequence;
import org.bftws.rm.SequenceIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four replicas over real HTTP with a short idle limit: a client sequence idle for longer than the limit expires by
 * an ordered decision (the agreed time in the batch that comes next) on every replica, which drops its last-reply
 * entry and WS-RM state; a request on it afterwards, new or replayed, gets a fault saying it expired and executes
 * nowhere.
 */
class SequenceExpiryOverHttpTest {

    /**
     * The idle limit: short, but a replica refuses a CreateSequence whose client UUID was made more than half of it
     * from its clock, and on a loaded 2-core machine the first call's CreateSequence reached a replica 1 s after the
     * client made its UUID (class loading, four nodes starting): with 2 s that refused the sequence. Half of 6 s leaves
     * 3 s for it.
     */
    private static final long IDLE_MS = 6_000;

    @TempDir
    Path dir;

    @Test
    void aSequenceIdleLongerThanTheLimitExpiresOnEveryReplicaAndARequestOnItGetsTheExpiredFault() throws Exception {
        int[] p = NodeServer.freePorts(4);
        List<String> endpoints = new ArrayList<>();
        for (int port : p) {
            endpoints.add(EchoReplicas.endpoint(port));
        }
        try (EchoReplicas group = new EchoReplicas(dir, "none", "clientTimeout=\"5s\" viewChangeTimeout=\"10s\""
                + " sequenceIdleLimit=\"" + IDLE_MS + "ms\" clockSkewBound=\"500ms\"", endpoints)) {
            List<ConfigurationContext> replicas = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                replicas.add(group.startNode(i, p[i], null));
            }
            ConfigurationContext ctx = group.client();
            ServiceClient client = TestNodes.serviceClient(ctx, EchoReplicas.GROUP);
            TestNodes.call(client, TestNodes.append("one"));
            TestNodes.call(client, TestNodes.append("two"));
            OutboundSequence seq = (OutboundSequence) client.getLastOperationContext()
                    .getMessageContext(WSDLConstants.MESSAGE_LABEL_OUT_VALUE).getProperty(MulticastSender.SEQUENCE);
            assertTrue(SequenceIds.createdAt(seq.id()).isPresent(), "the identifier carries its creation time: " + seq.id());
            for (ConfigurationContext r : replicas) {
                // a call returns on f+1 replies: the last replica may still be executing the second append
                waitFor(() -> manager(r).replyEntries() == 1);
                assertEquals(1, manager(r).replyEntries());
            }

            Thread.sleep(IDLE_MS + 1_500); // idle past the limit and the clocks' bound
            // the client comes back with message 3: its batch's agreed time expires the sequence first
            for (String endpoint : endpoints) {
                HttpResponse<String> answer = post(endpoint, append(endpoint, seq.id(), 3, "late"));
                assertEquals(500, answer.statusCode(), answer.body());
                assertTrue(answer.body().contains("SequenceTerminated") && answer.body().contains("expired"),
                        answer.body());
            }
            long[] executed = new long[replicas.size()];
            for (int i = 0; i < replicas.size(); i++) {
                ConfigurationContext r = replicas.get(i);
                waitFor(() -> manager(r).replyEntries() == 0);
                assertEquals(0, manager(r).replyEntries(), "the expired sequence's entry is gone on replica " + i);
                assertEquals(1L, manager(r).counters().get("sequences expired"), "replica " + i);
                waitFor(() -> BftwsNode.of(r).destination().sequences().find(seq.id()).isEmpty());
                assertTrue(BftwsNode.of(r).destination().sequences().find(seq.id()).isEmpty(),
                        "its WS-RM state is forgotten on replica " + i);
                executed[i] = BftwsNode.of(r).replica().invoker().executedRequests();
                assertEquals(2, executed[i], "only 'one' and 'two' executed on replica " + i);
            }
            // a replay of message 1 (it appended "one"): refused as expired, executed nowhere
            for (String endpoint : endpoints) {
                HttpResponse<String> answer = post(endpoint, append(endpoint, seq.id(), 1, "one"));
                assertEquals(500, answer.statusCode(), answer.body());
                assertTrue(answer.body().contains("expired"), answer.body());
            }
            for (int i = 0; i < replicas.size(); i++) {
                ConfigurationContext r = replicas.get(i);
                assertEquals(executed[i], BftwsNode.of(r).replica().invoker().executedRequests(), "replica " + i);
                assertEquals(0, manager(r).replyEntries());
            }
            // far beyond any window of the sequence, which every replica forgot: the ordered state still answers
            for (String endpoint : endpoints) {
                HttpResponse<String> answer = post(endpoint, append(endpoint, seq.id(), 1_000, "far"));
                assertEquals(500, answer.statusCode(), answer.body());
                assertTrue(answer.body().contains("SequenceTerminated") && answer.body().contains("expired"),
                        answer.body());
            }
            // the client's own next call on it is refused the same way; the call after opens a new sequence
            org.apache.axis2.AxisFault refused = org.junit.jupiter.api.Assertions.assertThrows(
                    org.apache.axis2.AxisFault.class, () -> TestNodes.call(client, TestNodes.append("late")));
            assertTrue(String.valueOf(refused.getMessage()).contains("expired"), String.valueOf(refused.getMessage()));
            TestNodes.call(client, TestNodes.append("three"));
            OutboundSequence renewed = (OutboundSequence) client.getLastOperationContext()
                    .getMessageContext(WSDLConstants.MESSAGE_LABEL_OUT_VALUE).getProperty(MulticastSender.SEQUENCE);
            assertTrue(!renewed.id().equals(seq.id()), "a new sequence: " + renewed.id());
            // and another client goes on in a sequence of its own
            TestNodes.call(TestNodes.serviceClient(group.client(), EchoReplicas.GROUP), TestNodes.append("four"));
        }
    }
}
