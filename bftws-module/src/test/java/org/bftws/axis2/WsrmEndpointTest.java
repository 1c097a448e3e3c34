package org.bftws.axis2;

import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.rm.RmDestination;
import org.bftws.axis2.standalone.NodeServer;
import org.bftws.rm.RmCounters;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.axis2.client.MulticastSender;
import org.bftws.rm.OutboundSequence;
import org.bftws.rm.SequenceIds;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The echo sample on a bftws node in WS-RM-only mode (no replicas.xml), called by an Axis2 client over HTTP. */
class WsrmEndpointTest {

    @TempDir
    static Path dir;
    static NodeServer server;
    static ConfigurationContext rmClient;
    static String endpoint;

    @BeforeAll
    static void start() throws Exception {
        server = TestNodes.echoNode(dir);
        endpoint = server.endpoint("EchoService");
        rmClient = TestNodes.client(dir, true);
    }

    @AfterAll
    static void stop() throws Exception {
        rmClient.terminate();
        server.close();
    }

    @Test
    void aPlainSoapRequestWithoutWsrmHeadersGetsAFaultThatNamesWhatIsMissing() throws Exception {
        ServiceClient plain = TestNodes.serviceClient(TestNodes.client(dir, false), endpoint);
        AxisFault fault = assertThrows(AxisFault.class, () -> TestNodes.call(plain, TestNodes.echo("x")));
        assertTrue(fault.getMessage().contains("wsrm:Sequence"), fault.getMessage());
        assertTrue(fault.getMessage().contains("CreateSequence"), fault.getMessage());
    }

    @Test
    void messagesTravelInADerivedSequenceNumberedFromOneAndAreDeliveredOnce() throws Exception {
        RmCounters counters = BftwsNode.of(server.context()).counters();
        long createdBefore = counters.sequencesCreated.get();
        long acceptedBefore = counters.accepted.get();
        ServiceClient client = TestNodes.serviceClient(rmClient, endpoint);
        client.getOptions().setProperty(org.bftws.axis2.rm.RmSource.SEQUENCE_KEY, "numbering");
        int before = -1;
        for (int i = 1; i <= 5; i++) {
            OMElement reply = TestNodes.call(client, TestNodes.append("v" + i));
            int count = Integer.parseInt(TestNodes.child(reply, "count"));
            if (before < 0) {
                before = count - 1;
            }
            assertEquals(before + i, count);
            var out = client.getLastOperationContext().getMessageContext(WSDLConstants.MESSAGE_LABEL_OUT_VALUE);
            assertEquals((long) i, out.getProperty(MulticastSender.MESSAGE_NUMBER));
            OutboundSequence seq = (OutboundSequence) out.getProperty(MulticastSender.SEQUENCE);
            assertTrue(SequenceIds.derivedFrom(seq.id(), seq.clientUuid(), URI.create(endpoint)), seq.id());
        }
        assertEquals(createdBefore + 1, counters.sequencesCreated.get());
        assertEquals(acceptedBefore + 5, counters.accepted.get());
    }

    @Test
    void aServiceFaultIsCapturedAsTheReplyAndReachesTheClientAsAFault() throws Exception {
        ServiceClient client = TestNodes.serviceClient(rmClient, endpoint);
        client.getOptions().setProperty(org.bftws.axis2.rm.RmSource.SEQUENCE_KEY, "fault");
        org.apache.axiom.om.OMFactory f = org.apache.axiom.om.OMAbstractFactory.getOMFactory();
        org.apache.axiom.om.OMNamespace e = f.createOMNamespace(org.bftws.samples.echo.EchoService.NS, "e");
        OMElement set = f.createOMElement("set_state", e);
        OMElement state = f.createOMElement("state", e, set);
        state.addAttribute("digest", "00", null);
        long delivered = BftwsNode.of(server.context()).destination().deliveredCount();
        AxisFault fault = assertThrows(AxisFault.class, () -> TestNodes.call(client, set));
        assertTrue(fault.getMessage().contains("does not match"), fault.getMessage());
        assertEquals(delivered + 1, BftwsNode.of(server.context()).destination().deliveredCount());
        // The sequence goes on after the fault.
        assertEquals("echoResponse", TestNodes.call(client, TestNodes.echo("x", "y")).getLocalName());
    }

    private static String post(String header) throws Exception {
        String envelope = "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/' "
                + "xmlns:wsa='http://www.w3.org/2005/08/addressing' "
                + "xmlns:wsrm='http://docs.oasis-open.org/ws-rx/wsrm/200702'><s:Header>"
                + "<wsa:To>" + endpoint + "</wsa:To><wsa:Action>http://bftws.org/samples/echo/echo</wsa:Action>"
                + "<wsa:MessageID>urn:uuid:" + java.util.UUID.randomUUID() + "</wsa:MessageID>" + header
                + "</s:Header><s:Body><e:echo xmlns:e='http://bftws.org/samples/echo'/></s:Body></s:Envelope>";
        var request = java.net.http.HttpRequest.newBuilder(URI.create(endpoint))
                .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"\"")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(envelope)).build();
        var response = java.net.http.HttpClient.newHttpClient().send(request,
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(500, response.statusCode(), response.body());
        return response.body();
    }

    @Test
    void anUnknownSequenceOrAMalformedMessageNumberGetsAWsrmFaultThatSaysWhatIsWrong() throws Exception {
        String unknown = post("<wsrm:Sequence s:mustUnderstand='1'><wsrm:Identifier>urn:uuid:nope</wsrm:Identifier>"
                + "<wsrm:MessageNumber>1</wsrm:MessageNumber></wsrm:Sequence>");
        assertTrue(unknown.contains("UnknownSequence") && unknown.contains("urn:uuid:nope"), unknown);
        String malformed = post("<wsrm:Sequence><wsrm:Identifier>urn:uuid:x</wsrm:Identifier>"
                + "<wsrm:MessageNumber>seven</wsrm:MessageNumber></wsrm:Sequence>");
        assertTrue(malformed.contains("InvalidMessage") && malformed.contains("'seven' is not a number"), malformed);
        String zero = post("<wsrm:Sequence><wsrm:Identifier>urn:uuid:x</wsrm:Identifier>"
                + "<wsrm:MessageNumber>0</wsrm:MessageNumber></wsrm:Sequence>");
        assertTrue(zero.contains("at least 1"), zero);
    }

    @Test
    void terminateSequenceMakesTheServerForgetTheSequence() throws Exception {
        ServiceClient client = TestNodes.serviceClient(rmClient, endpoint);
        client.getOptions().setProperty(org.bftws.axis2.rm.RmSource.SEQUENCE_KEY, "terminate");
        TestNodes.call(client, TestNodes.echo("a", "b"));
        var seq = (OutboundSequence) client.getLastOperationContext()
                .getMessageContext(WSDLConstants.MESSAGE_LABEL_OUT_VALUE).getProperty(MulticastSender.SEQUENCE);
        RmDestination dest = BftwsNode.of(server.context()).destination();
        assertTrue(dest.sequences().find(seq.id()).isPresent());
        assertTrue(BftwsNode.of(rmClient).source().terminate(endpoint, "terminate"));
        assertTrue(dest.sequences().find(seq.id()).isEmpty());
    }
}
