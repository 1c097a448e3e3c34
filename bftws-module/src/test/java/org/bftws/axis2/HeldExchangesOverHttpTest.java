package org.bftws.axis2;

import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.rm.RmDestination;
import org.bftws.axis2.standalone.NodeServer;
import org.bftws.rm.RmCounters;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.axis2.client.MulticastSender;
import org.bftws.axis2.rm.RmSource;
import org.bftws.rm.OutboundSequence;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request held for an earlier, missing message of its sequence is answered with the retry-later fault once its
 * hold time has passed, garbage collections or not. And a node holds at most {@code maxHeldExchanges} HTTP exchanges waiting for their replies (each parks one of the HTTP
 * server's threads): beyond that the oldest is answered at once with the retry-later fault, over real HTTP, and
 * nothing is lost: the request it carried is still delivered, and answered from the cache when retransmitted.
 */
class HeldExchangesOverHttpTest {

    @TempDir
    Path dir;

    @Test
    void beyondTheLimitTheOldestWaitingExchangeGetsTheRetryLaterFaultAndItsRequestIsStillDelivered()
            throws Exception {
        NodeServer server = echoNodeWith("maxHeldExchanges", "1");
        ConfigurationContext rmClient = TestNodes.client(dir, true);
        try {
            String endpoint = server.endpoint("EchoService");
            RmDestination destination = BftwsNode.of(server.context()).destination();
            ServiceClient client = TestNodes.serviceClient(rmClient, endpoint);
            client.getOptions().setProperty(RmSource.SEQUENCE_KEY, "held");
            TestNodes.call(client, TestNodes.echo("first"));
            String sequence = ((OutboundSequence) client.getLastOperationContext()
                    .getMessageContext(WSDLConstants.MESSAGE_LABEL_OUT_VALUE).getProperty(MulticastSender.SEQUENCE)).id();
            RmCounters counters = BftwsNode.of(server.context()).counters();
            long letGoBefore = counters.heldExchangesLetGo.get();
            long deliveredBefore = destination.deliveredCount();

            // Messages 3 and 4 wait for the missing 2; the node may hold only one of them.
            CompletableFuture<HttpResponse<String>> third = post(endpoint, sequence, 3, "three");
            waitUntil(() -> destination.heldExchanges() >= 1);
            CompletableFuture<HttpResponse<String>> fourth = post(endpoint, sequence, 4, "four");
            HttpResponse<String> letGo = third.get(10, TimeUnit.SECONDS);
            assertEquals(500, letGo.statusCode(), letGo.body());
            assertTrue(letGo.body().contains("holds at most 1 waiting exchanges"), letGo.body());
            assertEquals(letGoBefore + 1, counters.heldExchangesLetGo.get());
            assertFalse(fourth.isDone(), "the newest exchange is still held");

            // The gap closes: 2, 3 and 4 are delivered in order (2's own exchange, held a moment, may push out 4's).
            HttpResponse<String> second = post(endpoint, sequence, 2, "two").get(10, TimeUnit.SECONDS);
            assertTrue(second.body().contains(">two<"), second.statusCode() + " " + second.body());
            String fourthAnswer = fourth.get(10, TimeUnit.SECONDS).body();
            assertTrue(fourthAnswer.contains(">four<") || fourthAnswer.contains("holds at most 1"), fourthAnswer);
            // Nothing was lost: 3 and 4 were delivered, so their retransmissions get the cached replies.
            for (String[] m : new String[][] {{"3", "three"}, {"4", "four"}}) {
                HttpResponse<String> again = post(endpoint, sequence, Long.parseLong(m[0]), m[1])
                        .get(10, TimeUnit.SECONDS);
                assertEquals(200, again.statusCode(), again.body());
                assertTrue(again.body().contains(">" + m[1] + "<"), again.body());
            }
            assertEquals(3, destination.deliveredCount() - deliveredBefore, "two, three and four, each once");
        } finally {
            rmClient.terminate();
            server.close();
        }
    }

    @Test
    void aHeldRequestIsAnsweredWithAFaultAfterItsHoldTimeEvenAcrossGarbageCollections() throws Exception {
        NodeServer server = echoNodeWith("holdTimeoutMillis", "600");
        ConfigurationContext rmClient = TestNodes.client(dir, true);
        try {
            String endpoint = server.endpoint("EchoService");
            ServiceClient client = TestNodes.serviceClient(rmClient, endpoint);
            client.getOptions().setProperty(RmSource.SEQUENCE_KEY, "timed");
            TestNodes.call(client, TestNodes.echo("first"));
            String sequence = ((OutboundSequence) client.getLastOperationContext()
                    .getMessageContext(WSDLConstants.MESSAGE_LABEL_OUT_VALUE).getProperty(MulticastSender.SEQUENCE)).id();
            // message 3 while 2 never comes: held until the hold time has passed
            CompletableFuture<HttpResponse<String>> held = post(endpoint, sequence, 3, "x");
            for (int i = 0; i < 10 && !held.isDone(); i++) {
                System.gc();
                Thread.sleep(100);
            }
            HttpResponse<String> response = held.get(30, TimeUnit.SECONDS);
            assertEquals(500, response.statusCode(), response.body());
            assertTrue(response.body().contains("was not delivered within 600 ms"), response.body());
        } finally {
            rmClient.terminate();
            server.close();
        }
    }

    /** An echo node whose bftws module setting {@code name} is {@code value} (read when the module starts). */
    private NodeServer echoNodeWith(String name, String value) throws Exception {
        System.setProperty("bftws." + name, value);
        try {
            return TestNodes.echoNode(dir);
        } finally {
            System.clearProperty("bftws." + name);
        }
    }

    private static CompletableFuture<HttpResponse<String>> post(String endpoint, String sequence, long number,
                                                                String item) {
        String envelope = "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/' "
                + "xmlns:wsa='http://www.w3.org/2005/08/addressing' "
                + "xmlns:wsrm='http://docs.oasis-open.org/ws-rx/wsrm/200702'><s:Header>"
                + "<wsa:To>" + endpoint + "</wsa:To><wsa:Action>http://bftws.org/samples/echo/echo</wsa:Action>"
                + "<wsa:MessageID>urn:uuid:" + java.util.UUID.randomUUID() + "</wsa:MessageID>"
                + "<wsrm:Sequence s:mustUnderstand='1'><wsrm:Identifier>" + sequence + "</wsrm:Identifier>"
                + "<wsrm:MessageNumber>" + number + "</wsrm:MessageNumber></wsrm:Sequence>"
                + "</s:Header><s:Body><e:echo xmlns:e='http://bftws.org/samples/echo'><e:item>" + item
                + "</e:item></e:echo></s:Body></s:Envelope>";
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"\"")
                .POST(HttpRequest.BodyPublishers.ofString(envelope)).build();
        return HttpClient.newHttpClient().sendAsync(request, HttpResponse.BodyHandlers.ofString());
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 10 s");
            }
            Thread.sleep(20);
        }
    }
}
