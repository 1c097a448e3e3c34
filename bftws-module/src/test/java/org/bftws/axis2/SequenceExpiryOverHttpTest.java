package org.bftws.axis2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.axis2.client.MulticastSender;
import org.bftws.rm.OutboundSequence;
import org.bftws.rm.SequenceIds;
import org.bftws.samples.echo.EchoService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four replicas over real HTTP with a short idle limit: a client sequence idle for longer than the limit expires by
 * an ordered decision (the agreed time in the batch that comes next) on every replica, which drops its last-reply
 * entry and WS-RM state; a request on it afterwards, new or replayed, gets a fault saying it expired and executes
 * nowhere.
 */
class SequenceExpiryOverHttpTest {

    private static final long IDLE_MS = 2_000;

    @TempDir
    Path dir;

    @Test
    void aSequenceIdleLongerThanTheLimitExpiresOnEveryReplicaAndARequestOnItGetsTheExpiredFault() throws Exception {
        int[] p = NodeServer.freePorts(4);
        List<String> endpoints = new ArrayList<>();
        for (int port : p) {
            endpoints.add(EchoReplicas.endpoint(port));
        }
        try (EchoReplicas group = new EchoReplicas(dir, "none", "clientTimeout=\"5s\" viewChangeTimeout=\"10s\""
                + " sequenceIdleLimit=\"" + IDLE_MS + "ms\" clockSkewBound=\"500ms\"", endpoints)) {
            List<ConfigurationContext> replicas = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                replicas.add(group.startNode(i, p[i], null));
            }
            ConfigurationContext ctx = group.client();
            ServiceClient client = TestNodes.serviceClient(ctx, EchoReplicas.GROUP);
            TestNodes.call(client, TestNodes.append("one"));
            TestNodes.call(client, TestNodes.append("two"));
            OutboundSequence seq = (OutboundSequence) client.getLastOperationContext()
                    .getMessageContext(WSDLConstants.MESSAGE_LABEL_OUT_VALUE).getProperty(MulticastSender.SEQUENCE);
            assertTrue(SequenceIds.createdAt(seq.id()).isPresent(), "the identifier carries its creation time: " + seq.id());
            for (ConfigurationContext r : replicas) {
                assertEquals(1, manager(r).replyEntries());
            }

            Thread.sleep(IDLE_MS + 1_500); // idle past the limit and the clocks' bound
            // the client comes back with message 3: its batch's agreed time expires the sequence first
            for (String endpoint : endpoints) {
                HttpResponse<String> answer = post(endpoint, append(endpoint, seq.id(), 3, "late"));
                assertEquals(500, answer.statusCode(), answer.body());
                assertTrue(answer.body().contains("SequenceTerminated") && answer.body().contains("expired"),
                        answer.body());
            }
            long[] executed = new long[replicas.size()];
            for (int i = 0; i < replicas.size(); i++) {
                ConfigurationContext r = replicas.get(i);
                waitFor(() -> manager(r).replyEntries() == 0);
                assertEquals(0, manager(r).replyEntries(), "the expired sequence's entry is gone on replica " + i);
                assertEquals(1L, manager(r).counters().get("sequences expired"), "replica " + i);
                waitFor(() -> BftwsNode.of(r).destination().sequences().find(seq.id()).isEmpty());
                assertTrue(BftwsNode.of(r).destination().sequences().find(seq.id()).isEmpty(),
                        "its WS-RM state is forgotten on replica " + i);
                executed[i] = BftwsNode.of(r).replica().invoker().executedRequests();
                assertEquals(2, executed[i], "only 'one' and 'two' executed on replica " + i);
            }
            // a replay of message 1 (it appended "one"): refused as expired, executed nowhere
            for (String endpoint : endpoints) {
                HttpResponse<String> answer = post(endpoint, append(endpoint, seq.id(), 1, "one"));
                assertEquals(500, answer.statusCode(), answer.body());
                assertTrue(answer.body().contains("expired"), answer.body());
            }
            for (int i = 0; i < replicas.size(); i++) {
                ConfigurationContext r = replicas.get(i);
                assertEquals(executed[i], BftwsNode.of(r).replica().invoker().executedRequests(), "replica " + i);
                assertEquals(0, manager(r).replyEntries());
            }
            // the client goes on in a new sequence
            TestNodes.call(TestNodes.serviceClient(group.client(), EchoReplicas.GROUP), TestNodes.append("three"));
        }
    }

    private static org.bftws.axis2.ordering.TotalOrderManager manager(ConfigurationContext replica) {
        return BftwsNode.of(replica).replica().manager();
    }

    private static String append(String to, String sequence, long n, String value) {
        return "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                + " xmlns:wsa=\"http://www.w3.org/2005/08/addressing\""
                + " xmlns:wsrm=\"http://docs.oasis-open.org/ws-rx/wsrm/200702\"><soapenv:Header>"
                + "<wsa:To>" + to + "</wsa:To><wsa:MessageID>urn:uuid:" + java.util.UUID.randomUUID()
                + "</wsa:MessageID><wsa:Action>" + EchoService.NS + "/append</wsa:Action>"
                + "<wsrm:Sequence soapenv:mustUnderstand=\"1\"><wsrm:Identifier>" + sequence + "</wsrm:Identifier>"
                + "<wsrm:MessageNumber>" + n + "</wsrm:MessageNumber></wsrm:Sequence></soapenv:Header><soapenv:Body>"
                + "<e:append xmlns:e=\"" + EchoService.NS + "\"><e:value>" + value + "</e:value></e:append>"
                + "</soapenv:Body></soapenv:Envelope>";
    }

    private static HttpResponse<String> post(String endpoint, String envelope) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint))
                .header("Content-Type", "text/xml; charset=UTF-8")
                .header("SOAPAction", "\"" + EchoService.NS + "/append\"")
                .timeout(java.time.Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofString(envelope)).build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean() && System.nanoTime() < until) {
            Thread.sleep(20);
        }
    }
}
