package org.bftws.axis2;

import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.standalone.NodeServer;
import org.bftws.rm.RmCounters;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.axis2.client.MulticastSender;
import org.bftws.axis2.rm.RmSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * WS-RM over a network that drops, duplicates, delays and reorders messages: an HTTP proxy between an Axis2 client
 * and a bftws node running the echo sample. The order-dependent {@code append} shows what the service executed.
 */
class LossyNetworkTest {

    @TempDir
    Path dir;

    @Test
    void appendsAreExecutedExactlyOnceInMessageNumberOrderDespiteDropsDuplicatesAndReordering() throws Exception {
        System.setProperty("bftws.retransmissionIntervalMillis", "50");
        System.setProperty("bftws.maxRetransmissions", "12");
        // Four threads share one sequence: while one backs off, the others get many replies delivered, so the
        // cache must keep more than the last few replies for the retransmission to find its own.
        System.setProperty("bftws.replyCacheDepth", "1000");
        try (NodeServer node = TestNodes.echoNode(dir);
             LossyProxy proxy = new LossyProxy(URI.create(node.endpoint("")),
                     LossyProxy.random(20260421L, 0.12, 0.12, 0.12, 30))) {
            ConfigurationContext clientCtx = TestNodes.client(dir, true);
            String address = proxy.address("/axis2/services/EchoService");
            int threads = 4;
            int perThread = 15;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<Map<Long, String>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    // All threads share one sequence, so their messages overtake each other on the way.
                    ServiceClient client = TestNodes.serviceClient(clientCtx, address);
                    client.getOptions().setProperty(RmSource.SEQUENCE_KEY, "shared");
                    Map<Long, String> sent = new TreeMap<>();
                    for (int i = 0; i < perThread; i++) {
                        String value = "t" + thread + "-" + i;
                        OMElement reply = TestNodes.call(client, TestNodes.append(value));
                        long n = (Long) client.getLastOperationContext()
                                .getMessageContext(WSDLConstants.MESSAGE_LABEL_OUT_VALUE)
                                .getProperty(MulticastSender.MESSAGE_NUMBER);
                        // The log length after this append is its position: its message number.
                        assertEquals(n, Long.parseLong(TestNodes.child(reply, "count")), value);
                        sent.put(n, value);
                    }
                    return sent;
                }));
            }
            Map<Long, String> byNumber = new TreeMap<>();
            for (Future<Map<Long, String>> f : results) {
                byNumber.putAll(f.get());
            }
            pool.shutdown();
            assertEquals(threads * perThread, byNumber.size());
            ServiceClient reader = TestNodes.serviceClient(clientCtx, node.endpoint("EchoService"));
            List<String> log = TestNodes.entries(TestNodes.call(reader, TestNodes.getState()));
            assertEquals(new ArrayList<>(byNumber.values()), log, "the service's log is the appends in message order");
            assertEquals(log.size(), log.stream().distinct().count(), "no append executed twice");

            RmCounters c = BftwsNode.of(node.context()).counters();
            assertTrue(proxy.droppedRequests.get() > 0 && proxy.droppedResponses.get() > 0
                    && proxy.duplicated.get() > 0, "the plan really dropped and duplicated: " + proxy.requests);
            assertTrue(c.duplicatesAnsweredFromCache.get() + c.duplicatesJoinedPending.get() > 0, c.toString());
            System.out.printf("lossy run: %d proxied requests, %d requests dropped, %d responses dropped, "
                    + "%d duplicated; node %s%n", proxy.requests.get(), proxy.droppedRequests.get(),
                    proxy.droppedResponses.get(), proxy.duplicated.get(), c);
            clientCtx.terminate();
        } finally {
            System.clearProperty("bftws.retransmissionIntervalMillis");
            System.clearProperty("bftws.maxRetransmissions");
            System.clearProperty("bftws.replyCacheDepth");
        }
    }

    @Test
    void aRetransmittedRequestIsAnsweredFromTheCacheNotExecutedTwice() throws Exception {
        System.setProperty("bftws.retransmissionIntervalMillis", "50");
        boolean[] droppedOnce = {false};
        LossyProxy.Plan dropFirstAppendReply = (index, body) -> {
            synchronized (droppedOnce) {
                if (body.contains("append") && !droppedOnce[0]) {
                    droppedOnce[0] = true;
                    return LossyProxy.Fate.DROP_RESPONSE;
                }
                return LossyProxy.Fate.PASS;
            }
        };
        try (NodeServer node = TestNodes.echoNode(dir);
             LossyProxy proxy = new LossyProxy(URI.create(node.endpoint("")), dropFirstAppendReply)) {
            ConfigurationContext clientCtx = TestNodes.client(dir, true);
            ServiceClient client = TestNodes.serviceClient(clientCtx, proxy.address("/axis2/services/EchoService"));
            OMElement reply = TestNodes.call(client, TestNodes.append("once"));
            assertEquals("1", TestNodes.child(reply, "count"));
            RmCounters c = BftwsNode.of(node.context()).counters();
            assertEquals(1, proxy.droppedResponses.get());
            assertEquals(1, c.duplicatesAnsweredFromCache.get(), c.toString());
            assertEquals(1, BftwsNode.of(node.context()).destination().deliveredCount());
            List<String> log = TestNodes.entries(TestNodes.call(client, TestNodes.getState()));
            assertEquals(Collections.singletonList("once"), log);
            clientCtx.terminate();
        } finally {
            System.clearProperty("bftws.retransmissionIntervalMillis");
        }
    }
}
