package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;

import com.google.gson.JsonObject;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.description.Parameter;
import org.apache.axis2.description.TransportInDescription;
import org.bftws.axis2.monitoring.StatusHttp;
import org.bftws.axis2.monitoring.StatusHttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stock Axis2 server whose axis2.xml names {@link StatusHttpServer} as its http receiver serves the status page
 * next to its services: a node that is no replica shows its WS-RM figures and {@code "replica":null}, and a
 * WS-RM request (whose exchange the module holds until the reply is ready) is answered on the same port as before;
 * {@code /bftws/metrics} serves the same counters in Prometheus' text format.
 */
class StatusHttpServerTest {

    @TempDir
    Path dir;

    @Test
    void aPlainWsrmNodeServesItsFiguresAsJsonAndToPrometheusAndItsServiceOnOnePort() throws Exception {
        ConfigurationContext context = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                TestNodes.repository(dir.resolve("server"), true).toString(), TestNodes.AXIS2_XML.toString());
        int port = NodeServer.freePort();
        // what Axis2's ListenerManager does with <transportReceiver name="http" class="...StatusHttpServer">
        TransportInDescription http = new TransportInDescription("http");
        http.addParameter(new Parameter("port", Integer.toString(port)));
        StatusHttpServer server = new StatusHttpServer();
        server.init(context, http);
        server.start();
        ConfigurationContext clientContext = TestNodes.client(dir, true);
        try {
            ServiceClient client = TestNodes.serviceClient(clientContext,
                    "http://127.0.0.1:" + port + "/axis2/services/EchoService");
            for (int i = 1; i <= 3; i++) {
                assertEquals(Integer.toString(i), TestNodes.child(TestNodes.call(client, TestNodes.append("v" + i)),
                        "count"));
            }
            JsonObject status = StatusHttp.status(port);
            assertTrue(status.get("replica").isJsonNull(), status.toString());
            JsonObject node = status.getAsJsonObject("node");
            assertEquals(3, node.get("deliveredRequests").getAsLong());
            assertEquals(3, node.getAsJsonObject("rmCounters").get("messages accepted").getAsLong());
            assertEquals(0, node.get("heldExchanges").getAsInt());

            HttpResponse<String> metrics = StatusHttp.send(port, "GET", "/bftws/metrics");
            assertEquals(200, metrics.statusCode(), metrics.body());
            assertEquals("text/plain; version=0.0.4; charset=utf-8",
                    metrics.headers().firstValue("Content-Type").orElse(""));
            assertTrue(metrics.body().contains("bftws_rm_total{counter=\"messages accepted\",party=\"\"} 3.0"),
                    metrics.body());
            assertTrue(metrics.body().contains("bftws_node_delivered_requests_total{party=\"\"} 3.0"), metrics.body());

            assertEquals(404, StatusHttp.send(port, "GET", "/bftws").statusCode());
            HttpResponse<String> put = StatusHttp.send(port, "PUT", "/bftws/status");
            assertEquals(405, put.statusCode(), put.body());
        } finally {
            clientContext.terminate();
            server.stop();
            context.terminate();
        }
    }
}
