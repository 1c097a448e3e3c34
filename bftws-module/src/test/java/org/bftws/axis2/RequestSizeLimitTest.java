package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;

import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.bftws.wire.WireLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica takes a request only as large as one PBFT request carries on the wire, because a replica that missed
 * a request gets its bytes from its peers: a larger one could never reach it (it stayed behind for good, and its
 * peers resent the request for ever, before the two limits were made one).
 */
class RequestSizeLimitTest {

    private static final int LIMIT = WireLimits.DEFAULT_MAX_PAYLOAD_BYTES;

    @TempDir
    Path dir;

    @Test
    void aRequestLargerThanOnePbftRequestCarriesIsRefusedWithASenderFaultThatSaysWhy() throws Exception {
        int[] p = NodeServer.freePorts(4);
        try (EchoReplicas group = new EchoReplicas(dir, "mac", "", endpoints(p))) {
            group.startNode(0, p[0], null);
            String envelope = "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                    + "<soapenv:Body><x>" + "y".repeat(LIMIT) + "</x></soapenv:Body></soapenv:Envelope>";
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(EchoReplicas.endpoint(p[0]))).header("Content-Type", "text/xml; charset=UTF-8")
                    .header("SOAPAction", "\"urn:echo\"").POST(HttpRequest.BodyPublishers.ofString(envelope)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, response.statusCode(), "the sender's fault");
            assertTrue(response.body().contains("Client</faultcode>"), response.body());
            assertTrue(response.body().contains("request larger than " + LIMIT + " bytes refused"), response.body());
        }
    }

    @Test
    void aClientSaysAtOnceThatARequestIsTooLargeForTheReplicasAndTheGroupServesItsNextOne() throws Exception {
        int[] p = NodeServer.freePorts(4);
        try (EchoReplicas group = new EchoReplicas(dir, "mac", "", endpoints(p))) {
            for (int i = 0; i < 4; i++) {
                group.startNode(i, p[i], null);
            }
            ServiceClient client = TestNodes.serviceClient(group.client(), EchoReplicas.GROUP);
            AxisFault tooLarge = assertThrows(AxisFault.class,
                    () -> TestNodes.call(client, TestNodes.echo("x".repeat(LIMIT)))); // with its envelope: larger
            assertTrue(tooLarge.getMessage().contains("the replicas take at most " + LIMIT), tooLarge.getMessage());
            assertEquals(List.of("next"), ReplicatedEchoVotingTest.items(TestNodes.call(client,
                    TestNodes.echo("next"))));
        }
    }

    private static List<String> endpoints(int[] p) {
        return List.of(EchoReplicas.endpoint(p[0]), EchoReplicas.endpoint(p[1]), EchoReplicas.endpoint(p[2]),
                EchoReplicas.endpoint(p[3]));
    }
}
