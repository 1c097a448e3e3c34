package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.rm.SequenceIds;
import org.bftws.samples.echo.EchoService;
import org.bftws.security.mac.SealedRequests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replicas no longer parse a request's body before ordering it (its MAC covers its bytes): a keyed client's request
 * whose body is not well-formed XML is ordered like any other, and its execution fails the same way on every replica,
 * which answers it with the same fault. Nothing diverges, and the group goes on ordering.
 */
class MalformedBodyOrderedTest {
    @TempDir
    Path dir;

    @Test
    void anAuthenticRequestWithABodyThatIsNotWellFormedIsOrderedAndAnsweredWithTheSameFaultByEveryReplica()
            throws Exception {
        int[] p = NodeServer.freePorts(4);
        List<String> endpoints = List.of(EchoReplicas.endpoint(p[0]), EchoReplicas.endpoint(p[1]),
                EchoReplicas.endpoint(p[2]), EchoReplicas.endpoint(p[3]));
        try (EchoReplicas group = new EchoReplicas(dir, "mac", "", endpoints)) {
            ConfigurationContext[] nodes = group.startAll(p);
            List<String> names = List.of("replica0", "replica1", "replica2", "replica3");
            String envelope = "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                    + " xmlns:wsa=\"http://www.w3.org/2005/08/addressing\""
                    + " xmlns:wsrm=\"http://docs.oasis-open.org/ws-rx/wsrm/200702\"><soapenv:Header>"
                    + "<wsa:To>" + EchoReplicas.GROUP + "</wsa:To><wsa:MessageID>urn:uuid:"
                    + java.util.UUID.randomUUID() + "</wsa:MessageID><wsa:Action>" + EchoService.NS
                    + "/echo</wsa:Action><wsrm:Sequence soapenv:mustUnderstand=\"1\"><wsrm:Identifier>"
                    + SequenceIds.derive(SequenceIds.newClientUuid(), URI.create(EchoReplicas.GROUP), "client1") + "</wsrm:Identifier><wsrm:MessageNumber>1</wsrm:MessageNumber>"
                    + "</wsrm:Sequence>" + SealedRequests.header("client1", names) + "</soapenv:Header>"
                    + "<soapenv:Body><e:echo xmlns:e=\"" + EchoService.NS + "\"><e:item>unclosed</e:itm></e:echo>"
                    + "</soapenv:Body></soapenv:Envelope>";
            byte[] sealed = SealedRequests.seal(envelope, dir.resolve("keys/client1.p12"), "client1",
                    "pw".toCharArray(), "EchoService", names);

            HttpClient http = HttpClient.newHttpClient();
            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            for (String endpoint : endpoints) {
                answers.add(http.sendAsync(HttpRequest.newBuilder(URI.create(endpoint))
                        .header("Content-Type", "text/xml; charset=UTF-8")
                        .header("SOAPAction", "\"" + EchoService.NS + "/echo\"").timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(sealed)).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            List<String> faults = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                HttpResponse<String> r = answers.get(i).join();
                assertEquals(500, r.statusCode(), "replica" + i + ": " + r.body());
                String body = r.body();
                assertTrue(body.contains("covers=\"bytes\""), "a fault MACed for the client: " + body);
                faults.add(body.substring(body.indexOf("<soapenv:Body>")));
            }
            for (int i = 1; i < 4; i++) {
                assertEquals(faults.get(0), faults.get(i), "replica" + i + " answered as replica0 did");
            }
            for (int i = 0; i < 4; i++) {
                BftwsNode node = BftwsNode.of(nodes[i]);
                RawSequenceRequests.waitFor(() -> node.replica().invoker().executedRequests() >= 1);
                assertEquals(1, node.replica().invoker().executedRequests(), "replica" + i + " ordered it once");
            }

            ServiceClient client = TestNodes.serviceClient(group.client(), EchoReplicas.GROUP);
            assertEquals(List.of("after"), ReplicatedEchoVotingTest.items(TestNodes.call(client,
                    TestNodes.echo("after"))), "the group goes on");
        }
    }
}
