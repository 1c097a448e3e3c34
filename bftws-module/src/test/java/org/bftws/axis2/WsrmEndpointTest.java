package org.bftws.axis2;

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
        client.getOptions().setProperty(org.bftws.axis2.client.RmSource.SEQUENCE_KEY, "numbering");
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
            assertEquals(SequenceIds.derive(seq.clientUuid(), URI.create(endpoint)), seq.id());
        }
        assertEquals(createdBefore + 1, counters.sequencesCreated.get());
        assertEquals(acceptedBefore + 5, counters.accepted.get());
    }

    @Test
    void terminateSequenceMakesTheServerForgetTheSequence() throws Exception {
        ServiceClient client = TestNodes.serviceClient(rmClient, endpoint);
        client.getOptions().setProperty(org.bftws.axis2.client.RmSource.SEQUENCE_KEY, "terminate");
        TestNodes.call(client, TestNodes.echo("a", "b"));
        var seq = (OutboundSequence) client.getLastOperationContext()
                .getMessageContext(WSDLConstants.MESSAGE_LABEL_OUT_VALUE).getProperty(MulticastSender.SEQUENCE);
        RmDestination dest = BftwsNode.of(server.context()).destination();
        assertTrue(dest.sequences().find(seq.id()).isPresent());
        assertTrue(BftwsNode.of(rmClient).source().terminate(endpoint, "terminate"));
        assertTrue(dest.sequences().find(seq.id()).isEmpty());
    }
}
