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
 * order; they are answered "not yet available" so that clients retransmit them. Raw SOAP over HTTP here, as a client would
 * send it, because a bftws client talks to the whole group.
 */
class ReplicaStartupTest {

    @TempDir
    Path dir;

    @Test
    void aReplicaWhoseOrderingHasNotStartedAsksForARetransmissionInsteadOfExecutingTheRequest() throws Exception {
        int[] ports = NodeServer.freePorts(8); // four HTTP ports, four channel ports, all distinct
        int port = ports[0];
        String endpoint = "http://127.0.0.1:" + port + "/axis2/services/EchoService";
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
                + " f=\"1\" dataDirectory=\"data\">\n<security profile=\"none\"/>\n" + nodes
                + "</group>\n<client name=\"client1\"/>\n</replicas>\n");
        // Its data directory cannot be opened (a file where the directory should be): the role never starts.
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("data").resolve("replica0"), "not a directory");
        Path axis2 = dir.resolve("axis2-replica0.xml");
        Files.writeString(axis2, Files.readString(TestNodes.AXIS2_XML).replace("<module ref=\"bftws\"/>",
                "<module ref=\"bftws\"/>\n<moduleConfig name=\"bftws\"><parameter name=\"replicasConfig\">"
                        + replicasXml + "</parameter><parameter name=\"party\">replica0</parameter></moduleConfig>"));
        NodeServer replica = NodeServer.start(TestNodes.repository(dir.resolve("replica0"), true), axis2, port);
        try {
            String uuid = org.bftws.rm.SequenceIds.newClientUuid();
            String created = post(endpoint, Wsrm.NS + "/CreateSequence", "", RmBodies.createSequence(uuid).toString());
            String id = SequenceIds.derive(uuid, URI.create("http://echo.bftws.group/axis2/services/EchoService"), "");
            assertTrue(created.contains(id), "the replica created the client's sequence: " + created);
            String appended = post(endpoint, EchoService.NS + "/append", "<wsrm:Sequence><wsrm:Identifier>" + id
                    + "</wsrm:Identifier><wsrm:MessageNumber>1</wsrm:MessageNumber></wsrm:Sequence>",
                    "<e:append xmlns:e='" + EchoService.NS + "'><e:value>x</e:value></e:append>");
            assertTrue(appended.contains("ReplyNotYetAvailable") && appended.contains("has not started ordering"),
                    "the request must not be executed outside the total order: " + appended);
            assertTrue(BftwsNode.of(replica.context()).replica() == null, "the replica role did not start");
        } finally {
            replica.close();
        }
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
