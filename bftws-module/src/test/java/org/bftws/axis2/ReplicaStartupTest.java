package org.bftws.axis2;

import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.rm.RmBodies;
import org.bftws.axis2.standalone.NodeServer;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.bftws.rm.SequenceIds;
import org.bftws.rm.Wsrm;
import org.bftws.samples.echo.EchoService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica serves HTTP before its replica role (PBFT ordering) has started: the role starts once the service is
 * deployed, after recovery from the data directory and loading keys. Requests to the replicated service that arrive
 * meanwhile must never be delivered in plain WS-RM order, which would execute them on this replica outside the total
 * order; they are answered "not yet available" so that clients retransmit them. And a replica that stops answers the
 * exchanges it holds the same way. Raw SOAP over HTTP here, as a client would send it, because a bftws client talks
 * to the whole group.
 */
class ReplicaStartupTest {

    @TempDir
    Path dir;

    @Test
    void aReplicaWhoseOrderingHasNotStartedAsksForARetransmissionInsteadOfExecutingTheRequest() throws Exception {
        int[] ports = NodeServer.freePorts(8); // four HTTP ports, four channel ports, all distinct
        String endpoint = "http://127.0.0.1:" + ports[0] + "/axis2/services/EchoService";
        // Its data directory cannot be opened (a file where the directory should be): the role never starts.
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("data").resolve("replica0"), "not a directory");
        NodeServer replica = replica0(ports);
        try {
            String appended = append(endpoint, openSequence(endpoint), 1);
            assertTrue(appended.contains("ReplyNotYetAvailable") && appended.contains("has not started ordering"),
                    "the request must not be executed outside the total order: " + appended);
            assertTrue(BftwsNode.of(replica.context()).replica() == null, "the replica role did not start");
        } finally {
            replica.close();
        }
    }

    /**
     * Alone of its group, replica0 admits a request it cannot order and holds the client's exchange for its reply;
     * when it stops meanwhile, the client reads "retry later" (the request may still be ordered once the replica
     * runs again), never the HTTP server's shutdown ("We were interrupted") as the replica's answer.
     */
    @Test
    void aReplicaThatStopsAnswersTheExchangesItHoldsWithRetryLater() throws Exception {
        int[] ports = NodeServer.freePorts(8);
        String endpoint = "http://127.0.0.1:" + ports[0] + "/axis2/services/EchoService";
        NodeServer replica = replica0(ports);
        java.util.concurrent.CompletableFuture<String> answer;
        try {
            assertTrue(within(20, () -> BftwsNode.of(replica.context()).replica() != null), "the replica role started");
            String id = openSequence(endpoint);
            answer = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return append(endpoint, id, 1);
                } catch (Exception e) {
                    return e.toString();
                }
            });
            assertTrue(within(10, () -> BftwsNode.of(replica.context()).counters().accepted.get() > 0),
                    "the request was admitted");
            Thread.sleep(200);
            assertTrue(!answer.isDone(), "held: the replica cannot order alone: " + (answer.isDone() ? answer.get() : ""));
        } finally {
            replica.close();
        }
        String body = answer.get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(body.contains("ReplyNotYetAvailable") && body.contains("is stopping")
                && !body.contains("interrupted"), body);
    }

    /** Whether {@code condition} held within {@code seconds}, asked every 20 ms. */
    private static boolean within(int seconds, java.util.function.BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** replica0 of a four-node group (the others never run) on the first of {@code ports}, security none. */
    private NodeServer replica0(int[] ports) throws Exception {
        StringBuilder nodes = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            String url = "http://127.0.0.1:" + ports[i] + "/axis2/services/EchoService";
            nodes.append("<node id=\"").append(i).append("\" name=\"replica").append(i).append("\" serviceEndpoint=\"")
                    .append(url).append("\" controlEndpoint=\"").append(url.replace("EchoService", "BftControl"))
                    .append("\" channelEndpoint=\"tcp://127.0.0.1:").append(ports[4 + i]).append("\"/>\n");
        }
        Path replicasXml = dir.resolve("replicas.xml");
        Files.writeString(replicasXml, "<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<group service=\"EchoService\" endpoint=\"http://echo.bftws.group/axis2/services/EchoService\""
                + " f=\"1\" dataDirectory=\"" + dir.resolve("data") + "\">\n<security profile=\"none\"/>\n" + nodes
                + "</group>\n<client name=\"client1\"/>\n</replicas>\n");
        Path axis2 = dir.resolve("axis2-replica0.xml");
        Files.writeString(axis2, Files.readString(TestNodes.AXIS2_XML).replace("<module ref=\"bftws\"/>",
                "<module ref=\"bftws\"/>\n<moduleConfig name=\"bftws\"><parameter name=\"replicasConfig\">"
                        + replicasXml + "</parameter><parameter name=\"party\">replica0</parameter></moduleConfig>"));
        return NodeServer.start(TestNodes.repository(dir.resolve("replica0"), true), axis2, ports[0]);
    }

    /** Opens a WS-RM sequence at {@code endpoint} as client1 would; returns its identifier. */
    private static String openSequence(String endpoint) throws Exception {
        String uuid = org.bftws.rm.SequenceIds.newClientUuid();
        String created = post(endpoint, Wsrm.NS + "/CreateSequence", "", RmBodies.createSequence(uuid).toString());
        String id = SequenceIds.derive(uuid, URI.create("http://echo.bftws.group/axis2/services/EchoService"), "");
        assertTrue(created.contains(id), "the replica created the client's sequence: " + created);
        return id;
    }

    /** Message {@code number} of sequence {@code id}: the echo service's append of "x". */
    private static String append(String endpoint, String id, int number) throws Exception {
        return post(endpoint, EchoService.NS + "/append", "<wsrm:Sequence><wsrm:Identifier>" + id
                + "</wsrm:Identifier><wsrm:MessageNumber>" + number + "</wsrm:MessageNumber></wsrm:Sequence>",
                "<e:append xmlns:e='" + EchoService.NS + "'><e:value>x</e:value></e:append>");
    }

    /** POSTs a SOAP 1.1 message with WS-Addressing headers (and {@code header}); returns the response body. */
    private static String post(String endpoint, String action, String header, String body) throws Exception {
        String envelope = "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/' "
                + "xmlns:wsa='http://www.w3.org/2005/08/addressing' xmlns:wsrm='" + Wsrm.NS + "'><s:Header>"
                + "<wsa:To>" + endpoint + "</wsa:To><wsa:Action>" + action + "</wsa:Action>"
                + "<wsa:ReplyTo><wsa:Address>http://www.w3.org/2005/08/addressing/anonymous</wsa:Address></wsa:ReplyTo>"
                + "<wsa:MessageID>urn:uuid:" + java.util.UUID.randomUUID() + "</wsa:MessageID>" + header
                + "</s:Header><s:Body>" + body + "</s:Body></s:Envelope>";
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint))
                .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"" + action + "\"")
                .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(envelope)).build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body();
    }
}
