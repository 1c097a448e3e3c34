package org.bftws.axis2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.axis2.client.MulticastSender;
import org.bftws.rm.OutboundSequence;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request held for an earlier, missing message of its sequence is answered with a fault once its hold time has
 * passed. The hold timer refers to the request only weakly (so delivered requests do not stay in memory for the
 * whole hold time); a held request must still be answered, garbage collection or not.
 */
class HoldTimeoutTest {

    @TempDir
    Path dir;

    @Test
    void aHeldRequestIsAnsweredWithAFaultAfterItsHoldTimeEvenAcrossGarbageCollections() throws Exception {
        System.setProperty("bftws.holdTimeoutMillis", "600");
        NodeServer server;
        try {
            server = TestNodes.echoNode(dir);
        } finally {
            System.clearProperty("bftws.holdTimeoutMillis");
        }
        ConfigurationContext rmClient = TestNodes.client(dir, true);
        try {
            String endpoint = server.endpoint("EchoService");
            ServiceClient client = TestNodes.serviceClient(rmClient, endpoint);
            client.getOptions().setProperty(org.bftws.axis2.client.RmSource.SEQUENCE_KEY, "held");
            TestNodes.call(client, TestNodes.echo("first"));
            var out = client.getLastOperationContext().getMessageContext(WSDLConstants.MESSAGE_LABEL_OUT_VALUE);
            String sequenceId = ((OutboundSequence) out.getProperty(MulticastSender.SEQUENCE)).id();

            // message 3 while 2 never comes: held until the hold time has passed
            CompletableFuture<java.net.http.HttpResponse<String>> held = java.net.http.HttpClient.newHttpClient()
                    .sendAsync(request(endpoint, sequenceId, 3), java.net.http.HttpResponse.BodyHandlers.ofString());
            for (int i = 0; i < 10 && !held.isDone(); i++) {
                System.gc();
                Thread.sleep(100);
            }
            var response = held.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(500, response.statusCode(), response.body());
            assertTrue(response.body().contains("was not delivered within 600 ms"), response.body());
        } finally {
            rmClient.terminate();
            server.close();
        }
    }

    private static java.net.http.HttpRequest request(String endpoint, String sequenceId, long number) {
        String envelope = "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/' "
                + "xmlns:wsa='http://www.w3.org/2005/08/addressing' "
                + "xmlns:wsrm='http://docs.oasis-open.org/ws-rx/wsrm/200702'><s:Header>"
                + "<wsa:To>" + endpoint + "</wsa:To><wsa:Action>http://bftws.org/samples/echo/echo</wsa:Action>"
                + "<wsa:MessageID>urn:uuid:" + java.util.UUID.randomUUID() + "</wsa:MessageID>"
                + "<wsrm:Sequence><wsrm:Identifier>" + sequenceId + "</wsrm:Identifier><wsrm:MessageNumber>" + number
                + "</wsrm:MessageNumber></wsrm:Sequence>"
                + "</s:Header><s:Body><e:echo xmlns:e='http://bftws.org/samples/echo'><e:item>x</e:item></e:echo>"
                + "</s:Body></s:Envelope>";
        return java.net.http.HttpRequest.newBuilder(URI.create(endpoint))
                .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"\"")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(envelope)).build();
    }
}
