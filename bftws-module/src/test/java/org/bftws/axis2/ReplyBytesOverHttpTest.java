package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.node.BftwsNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In {@code mac}, the bytes a replica writes to an exchange are the bytes it MACed, and a copy of a request it already
 * executed (a client's retransmission) is answered from its reply cache with those very bytes: one serialisation of
 * a reply, byte for byte the same however often it is sent, each copy authentic to the client.
 */
class ReplyBytesOverHttpTest {
    private static final String MARKER = "resent-request";

    @TempDir
    Path dir;

    @Test
    void aRetransmittedRequestIsAnsweredFromTheCacheWithTheFirstReplysBytesByteForByte() throws Exception {
        int[] p = NodeServer.freePorts(4);
        LossyProxy.Plan twice = (index, body) -> body.contains(MARKER) ? LossyProxy.Fate.DUPLICATE
                : LossyProxy.Fate.PASS;
        try (LossyProxy proxy = new LossyProxy(URI.create("http://127.0.0.1:" + p[3]), twice);
             EchoReplicas group = EchoReplicas.withReplica3Behind(proxy, dir, "mac", p)) {
            ConfigurationContext[] nodes = group.startAll(p);
            ServiceClient client = TestNodes.serviceClient(group.client(), EchoReplicas.GROUP);
            assertEquals(List.of(MARKER), ReplicatedEchoVotingTest.items(TestNodes.call(client,
                    TestNodes.echo(MARKER))));
            RawSequenceRequests.waitFor(() -> answersTo(proxy).size() >= 2);
            List<byte[]> answers = answersTo(proxy);
            assertEquals(2, answers.size(), "replica3 answered the request and its copy");
            String first = new String(answers.get(0), StandardCharsets.UTF_8);
            assertTrue(first.contains("covers=\"bytes\"") && first.contains(MARKER), first);
            assertArrayEquals(answers.get(0), answers.get(1), "the copy's answer is the first reply, byte for byte");
            assertEquals(1, BftwsNode.of(nodes[3]).replica().invoker().executedRequests(), "executed once");
            assertTrue(BftwsNode.of(nodes[3]).counters().duplicatesAnsweredFromCache.get() >= 1,
                    "the copy was answered from the cache");
        }
    }

    private static List<byte[]> answersTo(LossyProxy proxy) {
        synchronized (proxy.exchanged) {
            return proxy.exchanged.stream()
                    .filter(x -> new String(x[0], StandardCharsets.UTF_8).contains(MARKER))
                    .map(x -> x[1]).toList();
        }
    }
}
