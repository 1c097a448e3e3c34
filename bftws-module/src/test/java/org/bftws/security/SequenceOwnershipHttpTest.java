package org.bftws.security;

import org.bftws.axis2.standalone.NodeServer;
import org.bftws.axis2.security.SecuredAxis2Node;
import org.bftws.axis2.security.SecurityRuntime;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.rm.RmCounters;
import org.bftws.axis2.client.MulticastSender;
import org.bftws.rm.OutboundSequence;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sequence belongs to the party that created it (WS-RM's sequence-to-security binding; PBFT binds a request to
 * its client's signature). Another party the truststore trusts, here a replica's key, can neither add a request to
 * a client's sequence, nor read the client's cached replies through it, nor end it; the client goes on undisturbed.
 */
class SequenceOwnershipHttpTest {
    @TempDir
    static Path dir;
    static Deployment deployment;
    static SecuredAxis2Node node;
    static ConfigurationContext clientContext;
    static ServiceClient client;

    @BeforeAll
    static void start() throws Exception {
        int port = NodeServer.freePort();
        deployment = new Deployment(dir, "wssec", port, port + 1, port + 2, port + 3);
        node = SecuredAxis2Node.start(deployment, "replica0", port, dir.resolve("server-repo"));
        clientContext = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                SecuredAxis2Node.prepareRepository(dir.resolve("client-repo")).toString(), SecuredAxis2Node.axis2Xml());
        SecurityRuntime.install(clientContext, new SecurityRuntime(deployment.config, "client1"));
        client = new ServiceClient(clientContext, null);
        client.engageModule("addressing");
        client.engageModule("bftws");
        Options options = new Options();
        options.setTo(new EndpointReference(node.endpoint()));
        options.setAction("urn:echo");
        options.setTimeOutInMilliSeconds(10_000);
        client.setOptions(options);
    }

    @AfterAll
    static void stop() throws Exception {
        client.cleanup();
        clientContext.terminate();
        node.close();
    }

    private static String echo(String text) throws Exception {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMElement echo = f.createOMElement("echo", f.createOMNamespace(TestEcho.NS, "ns"));
        f.createOMElement("text", echo.getNamespace(), echo).setText(text);
        return client.sendReceive(echo).getText();
    }

    private static OutboundSequence clientSequence() throws Exception {
        return (OutboundSequence) client.getLastOperationContext()
                .getMessageContext(WSDLConstants.MESSAGE_LABEL_OUT_VALUE).getProperty(MulticastSender.SEQUENCE);
    }

    /** {@code text} as message {@code n} of {@code sequence}, signed by {@code party}. */
    private static String request(String party, String sequence, long n, String text) throws SecurityRefusal {
        String xml = Envelopes.request(node.endpoint(), text).replace("urn:uuid:seq-1", sequence)
                .replace("<wsrm:MessageNumber>1<", "<wsrm:MessageNumber>" + n + "<");
        return Envelopes.text(deployment.security(party).sign(Envelopes.parse(xml)));
    }

    private static RmCounters counters() {
        return BftwsNode.of(node.context).counters();
    }

    @Test
    void anotherPartyCanNeitherAddToReadNorEndAClientsSequence() throws Exception {
        assertEquals("mine, 1", echo("mine, 1"));
        String sequence = clientSequence().id();
        long n = clientSequence().lastMessageNumber();
        long refusedBefore = counters().notSequenceOwner.get();

        SecuredAxis2Node.HttpAnswer read = node.post(request("replica1", sequence, n, "x"));
        assertEquals(500, read.status(), read.body());
        assertTrue(read.body().contains("was not created by replica1"), read.body());
        assertFalse(read.body().contains("mine, 1"), "the client's cached reply leaked: " + read.body());

        SecuredAxis2Node.HttpAnswer injected = node.post(request("replica1", sequence, n + 1, "injected"));
        assertEquals(500, injected.status(), injected.body());
        assertTrue(injected.body().contains("was not created by replica1"), injected.body());

        String terminate = "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                + " xmlns:wsa=\"" + Envelopes.WSA + "\" xmlns:wsrm=\"" + Envelopes.WSRM + "\"><soapenv:Header>"
                + "<wsa:To>" + node.endpoint() + "</wsa:To><wsa:MessageID>urn:uuid:0b7e1c55-0c1d-4b59-8b1c-3a1f0f7d9e21"
                + "</wsa:MessageID><wsa:Action>" + Envelopes.WSRM + "/TerminateSequence</wsa:Action></soapenv:Header>"
                + "<soapenv:Body><wsrm:TerminateSequence><wsrm:Identifier>" + sequence + "</wsrm:Identifier>"
                + "</wsrm:TerminateSequence></soapenv:Body></soapenv:Envelope>";
        SecuredAxis2Node.HttpAnswer ended = node.post(
                Envelopes.text(deployment.security("replica1").sign(Envelopes.parse(terminate))),
                Envelopes.WSRM + "/TerminateSequence");
        assertEquals(500, ended.status(), ended.body());
        assertTrue(ended.body().contains("was not created by replica1"), ended.body());

        assertEquals(refusedBefore + 3, counters().notSequenceOwner.get());
        assertEquals("mine, 2", echo("mine, 2"), "the client's next request is its own, not the injected one");
        assertEquals(sequence, clientSequence().id());
        assertEquals(n + 1, clientSequence().lastMessageNumber());
    }

    @Test
    void theOwnerItselfStillReadsItsCachedReplyByRetransmitting() throws Exception {
        assertEquals("again", echo("again"));
        OutboundSequence seq = clientSequence();
        long n = seq.lastMessageNumber();
        SecuredAxis2Node.HttpAnswer retransmitted = node.post(request("client1", seq.id(), n, "again"));
        assertEquals(200, retransmitted.status(), retransmitted.body());
        assertTrue(retransmitted.body().contains(">again<"), retransmitted.body());
    }
}
