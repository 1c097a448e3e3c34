package org.bftws.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.client.BftwsConfigurator;
import org.bftws.axis2.monitoring.HttpAdmissionCounters;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.standalone.NodeServer;
import org.bftws.samples.echo.EchoServiceArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client library over TLS: four echo replicas serving HTTPS on their own server (replicas.xml's {@code <tls/>},
 * {@code https://} endpoints, client certificates required) and a BftClient as client1, on 127.0.0.1. Its calls
 * present client1's certificate and are decided; a handshake is made per connection, never per request: once every
 * replica answered a call, the next call reuses the connections. (A replica still holding the previous call's
 * exchange when the next starts gets another connection: the test waits for every replica to answer before each
 * call, and counts handshakes, not time.)
 */
class BftClientOverTlsTest {
    private static final String APPEND = EchoNodes.ACTION + "append";

    @TempDir
    Path dir;

    @Test
    void aBftClientCallsReplicasServingHttpsWithItsPartyCertificate() throws Exception {
        int[] ports = NodeServer.freePorts(4);
        Path conf = EchoNodes.groupConfig(dir, "mac", ports);
        Files.writeString(conf, Files.readString(conf).replace("<group ", "<tls/>\n<group ")
                .replace("http://127.0.0.1:", "https://127.0.0.1:"));
        List<NodeServer> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                Path repo = dir.resolve("replica" + i);
                EchoServiceArchive.writeTo(repo.resolve("services"));
                ConfigurationContext ctx = BftwsConfigurator.context(repo, EchoNodes.AXIS2_XML, conf, "replica" + i);
                nodes.add(NodeServer.serve(ctx, ports[i]));
            }
            int calls = 10;
            try (BftClient client = BftClient.builder().replicas(conf).party("client1").build()) {
                for (int i = 1; i <= calls; i++) {
                    assertEquals(List.of(Integer.toString(i)), EchoNodes.texts(
                            client.call(EchoNodes.GROUP, APPEND, EchoNodes.append("tls" + i))).subList(0, 1));
                    awaitEveryReplicaAnswered(nodes, i);
                }
            }
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                seen.add("replica" + i + ": " + HttpAdmissionCounters.of(nodes.get(i).context()));
            }
            for (int i = 0; i < 4; i++) {
                assertTrue(nodes.get(i).https(), "replica" + i + " serves HTTPS");
                HttpAdmissionCounters c = HttpAdmissionCounters.of(nodes.get(i).context());
                assertTrue(c.tlsHandshakes.get() > 0, "replica" + i + ": " + c);
                assertEquals(0, c.tlsFailed.get(), "replica" + i + ": " + c);
                // each replica got the 10 calls over fewer connections than calls: kept alive across calls
                assertTrue(c.tlsHandshakes.get() < calls, "replica" + i + " made a handshake per call: " + seen);
            }
        } finally {
            for (NodeServer n : nodes) {
                n.close();
            }
        }
    }

    /** Waits until every node executed {@code count} requests and holds no exchange: each has answered the call. */
    private static void awaitEveryReplicaAnswered(List<NodeServer> nodes, long count) throws InterruptedException {
        long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (true) {
            boolean all = true;
            StringBuilder seen = new StringBuilder();
            for (int i = 0; i < nodes.size(); i++) {
                BftwsNode node = BftwsNode.of(nodes.get(i).context());
                long executed = node.replica().invoker().executedRequests();
                int held = node.destination().heldExchanges();
                all &= executed >= count && held == 0;
                seen.append("replica").append(i).append(" executed ").append(executed).append(", held ").append(held)
                        .append("; ");
            }
            if (all) {
                return;
            }
            if (System.nanoTime() > end) {
                throw new AssertionError("not within 60 s: every replica answered call " + count + ": " + seen);
            }
            Thread.sleep(20);
        }
    }
}
