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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four replicas over real HTTP: a client's TerminateSequence is ordered like a request and removes the sequence's
 * last-reply entry on every replica; a request replayed on the ended sequence, or a new one, gets a fault saying so
 * and executes nowhere.
 */
class SequenceEndOverHttpTest {

    @TempDir
    Path dir;

    @Test
    void aTerminatedSequenceLeavesEveryReplicaAndARequestOnItLaterGetsAFaultAndIsNotExecuted() throws Exception {
        int[] p = NodeServer.freePorts(4);
        List<String> endpoints = new ArrayList<>();
        for (int port : p) {
            endpoints.add(EchoReplicas.endpoint(port));
        }
        try (EchoReplicas group = new EchoReplicas(dir, "none", "clientTimeout=\"5s\" viewChangeTimeout=\"10s\"",
                endpoints)) {
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
            for (ConfigurationContext r : replicas) {
                // a call returns on f+1 replies: the last replica may still be executing the second append
                waitFor(() -> manager(r).replyEntries() == 1);
                assertEquals(1, manager(r).replyEntries());
            }
            long executedBefore = manager(replicas.get(0)).lastExecuted();

            assertTrue(BftwsNode.of(ctx).source().terminate(EchoReplicas.GROUP, null), "the client had a sequence");
            for (ConfigurationContext r : replicas) {
                // the core drops the entry when it executes the terminate; the replica forgets the WS-RM sequence on
                // its reply thread a moment later (a loaded full build once looked in between)
                waitFor(() -> manager(r).replyEntries() == 0
                        && BftwsNode.of(r).destination().sequences().find(seq.id()).isEmpty());
                assertEquals(0, manager(r).replyEntries(), "the terminated sequence's entry is gone");
                assertTrue(BftwsNode.of(r).destination().sequences().find(seq.id()).isEmpty());
            }
            long executedAfterTerminate = manager(replicas.get(0)).lastExecuted();
            assertTrue(executedAfterTerminate > executedBefore, "the terminate was ordered");

            // a replay of message 1 (it appended "one") and a new message 3, straight to every replica
            for (long n : new long[] {1, 3}) {
                for (String endpoint : endpoints) {
                    HttpResponse<String> answer = post(endpoint, append(endpoint, seq.id(), n, "again"));
                    assertEquals(500, answer.statusCode(), answer.body());
                    assertTrue(answer.body().contains("SequenceTerminated") && answer.body().contains("terminated"),
                            answer.body());
                }
            }
            for (ConfigurationContext r : replicas) {
                assertEquals(0, manager(r).replyEntries());
                assertEquals(executedAfterTerminate, manager(r).lastExecuted(), "nothing more was ordered");
                // forgotten by the reply thread right after it answered the refusal: not necessarily before the
                // client read the answer (under a loaded full build it was not)
                waitFor(() -> BftwsNode.of(r).destination().sequences().find(seq.id()).isEmpty());
                assertTrue(BftwsNode.of(r).destination().sequences().find(seq.id()).isEmpty(),
                        "the refused requests leave no WS-RM state behind");
            }
        }
    }
}
