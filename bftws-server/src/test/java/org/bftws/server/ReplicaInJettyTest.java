package org.bftws.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.client.BftwsConfigurator;
import org.bftws.server.gateway.Gateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four echo replicas, each Axis2's AxisServlet in an embedded Jetty ({@link JettyNodeServer}, what
 * {@code replica --container jetty} runs), replica3 signing wrong replies; a gateway as client1 calls them. The
 * request waits in AxisServlet's held exchange for its ordered execution, and the status page is served beside it.
 */
class ReplicaInJettyTest {

    private static final String NS = "http://bftws.org/samples/echo";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    static Path dir;

    private static EchoGroup group;
    private static Gateway gateway;

    @BeforeAll
    static void start() throws Exception {
        group = new EchoGroup(dir, true, NodeContainer.JETTY);
        gateway = Gateway.start(new InetSocketAddress("127.0.0.1", 0), group.replicasXml, "client1", 4, Map.of(),
                EchoGroup.clientRepository());
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (group != null) {
            group.close();
        }
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return HTTP.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI replica(int i, String path) {
        return URI.create("http://127.0.0.1:" + group.port(i) + path);
    }

    @Test
    void replicasInAxisServletOrderAndAnswerARequestAndTheCallerGetsTheCorrectReplyDespiteALyingReplica()
            throws Exception {
        for (int n = 0; n < 3; n++) {
            String body = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>"
                    + "<e:echo xmlns:e=\"" + NS + "\"><e:item>jetty" + n + "</e:item></e:echo></s:Body></s:Envelope>";
            HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                            + gateway.address().getPort() + "/axis2/services/EchoService"))
                    .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"" + NS + "/echo\"")
                    .POST(HttpRequest.BodyPublishers.ofString(body)));
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().matches("(?s).*<[^>]*item>jetty" + n + "</.*"), r.body());
        }
        assertTrue(group.wrong.rewroteAtLeast(1), "replica3 answered (wrongly) too");
    }

    @Test
    void theStatusPageAndPrometheusEndpointAreServedBesideAxisServletAndOnlyRead() throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(replica(1, "/bftws/status")).GET());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"),
                r.headers().toString());
        assertTrue(r.body().startsWith("{\"party\":\"replica1\""), r.body());
        Matcher group = Pattern.compile("\"replica\":\\{\"group\":\"([^\"]*)\"").matcher(r.body());
        assertTrue(group.find() && group.group(1).equals("EchoService"), r.body());

        HttpResponse<String> metrics = send(HttpRequest.newBuilder(replica(1, "/bftws/metrics")).GET());
        assertEquals(200, metrics.statusCode(), metrics.body());
        assertTrue(metrics.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"),
                metrics.headers().toString());
        assertTrue(metrics.body().contains("bftws_rm_total{counter=\"messages accepted\",party=\"replica1\"}"),
                metrics.body());

        HttpResponse<String> post = send(HttpRequest.newBuilder(replica(1, "/bftws/status"))
                .POST(HttpRequest.BodyPublishers.ofString("x")));
        assertEquals(405, post.statusCode(), post.body());
        assertEquals(404, send(HttpRequest.newBuilder(replica(1, "/bftws/other")).GET()).statusCode());
    }

    @Test
    void aPortInUseStopsTheStartWithAMessageNamingTheAddress() throws Exception {
        Path repo = NodeRepository.forNode(dir.resolve("second"), NodeContainer.JETTY, group.port(0));
        ConfigurationContext ctx = BftwsConfigurator.context(repo, NodeRepository.axis2Xml(repo), group.replicasXml,
                "client1");
        IOException e = assertThrows(IOException.class,
                () -> JettyNodeServer.start(ctx, InetAddress.getLoopbackAddress(), group.port(0)));
        assertTrue(e.getMessage().startsWith("cannot listen on 127.0.0.1:" + group.port(0)), e.getMessage());
    }
}
