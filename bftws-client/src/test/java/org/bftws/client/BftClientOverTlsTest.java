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
import org.bftws.axis2.standalone.NodeServer;
import org.bftws.samples.echo.EchoServiceArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client library over TLS: four echo replicas serving HTTPS on their own server (replicas.xml's {@code <tls/>},
 * {@code https://} endpoints, client certificates required) and a BftClient as client1, on 127.0.0.1. Its calls
 * present client1's certificate and are decided; a handshake is made per connection, and the connections of the
 * replicas that keep up are kept across calls (a replica behind the decision gets a new one per call it still holds).
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
            try (BftClient client = BftClient.builder().replicas(conf).party("client1").build()) {
                for (int i = 1; i <= 10; i++) {
                    assertEquals(List.of(Integer.toString(i)), EchoNodes.texts(
                            client.call(EchoNodes.GROUP, APPEND, EchoNodes.append("tls" + i))).subList(0, 1));
                }
            }
            // A replica behind the decision still holds the previous call's exchange when the next call starts, so
            // that call opens another connection (and the abandoned one is closed): at most f replicas may lag so.
            int reused = 0;
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                assertTrue(nodes.get(i).https(), "replica" + i + " serves HTTPS");
                HttpAdmissionCounters c = HttpAdmissionCounters.of(nodes.get(i).context());
                seen.add("replica" + i + ": " + c);
                assertTrue(c.tlsHandshakes.get() > 0, "replica" + i + ": " + c);
                assertEquals(0, c.tlsFailed.get(), "replica" + i + ": " + c);
                if (c.tlsHandshakes.get() < 10) {
                    reused++;
                }
            }
            assertTrue(reused >= 3, "2f+1 replicas kept their connections across the 10 calls: " + seen);
        } finally {
            for (NodeServer n : nodes) {
                n.close();
            }
        }
    }
}
