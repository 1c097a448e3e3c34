package org.bftws.axis2.handlers;

import org.bftws.axis2.standalone.NodeServer;
import org.bftws.axis2.security.SecuredAxis2Node;
import org.bftws.axis2.security.SecurityRuntime;
import org.bftws.security.AuthenticatedParty;
import org.bftws.security.Deployment;
import org.bftws.security.Envelopes;
import org.bftws.security.RefusalReason;
import org.bftws.security.SecurityRefusal;
import org.bftws.security.SignedEnvelope;
import org.bftws.security.TestEcho;
import org.bftws.security.WsSecurity;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.wsdl.WSDLConstants;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The security handler in a real Axis2 HTTP server on a loopback port: a signed request from an Axis2 client gets a
 * signed reply; tampered, unsigned, untrusted, stale and wrapped messages get a SOAP fault naming the reason.
 */
class SecurityHandlerHttpTest {
    @TempDir
    static Path dir;
    @TempDir
    static Path otherDir;
    static Deployment deployment;
    static Deployment other;
    static SecuredAxis2Node node;

    @BeforeAll
    static void start() throws Exception {
        int port = NodeServer.freePort();
        deployment = new Deployment(dir, "wssec", port, port + 1, port + 2, port + 3);
        other = new Deployment(otherDir, "wssec", port, port + 1, port + 2, port + 3);
        node = SecuredAxis2Node.start(deployment, "replica0", port, dir.resolve("server-repo"));
    }

    @AfterAll
    static void stop() throws Exception {
        node.close();
    }

    private String signed(WsSecurity signer, String text) throws SecurityRefusal {
        return Envelopes.text(signer.sign(Envelopes.parse(Envelopes.request(node.endpoint(), text))));
    }

    private void assertFault(SecuredAxis2Node.HttpAnswer answer, String reasonWord, String faultCode) {
        assertEquals(500, answer.status(), answer.body());
        assertTrue(answer.body().contains("BFT-WS security refused the message: " + reasonWord), answer.body());
        assertTrue(answer.body().contains(faultCode), answer.body());
    }

    @Test
    void anAxis2ClientsSignedRequestIsExecutedAndItsSignedReplyVerifiesAsTheReplica() throws Exception {
        Path clientRepo = SecuredAxis2Node.prepareRepository(dir.resolve("client-repo"));
        ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                clientRepo.toString(), SecuredAxis2Node.axis2Xml());
        SecurityRuntime.install(ctx, new SecurityRuntime(deployment.config, "client1"));
        ServiceClient client = new ServiceClient(ctx, null);
        try {
            client.engageModule("addressing");
            client.engageModule("bftws");
            Options options = new Options();
            options.setTo(new EndpointReference(node.endpoint()));
            options.setAction("urn:echo");
            options.setTimeOutInMilliSeconds(10_000);
            client.setOptions(options);
            OMFactory f = OMAbstractFactory.getOMFactory();
            OMElement echo = f.createOMElement("echo", f.createOMNamespace(TestEcho.NS, "ns"));
            f.createOMElement("text", echo.getNamespace(), echo).setText("signed both ways");
            OMElement reply = client.sendReceive(echo);
            assertEquals("signed both ways", reply.getText());
            Object sender = client.getLastOperationContext().getMessageContext(WSDLConstants.MESSAGE_LABEL_IN_VALUE)
                    .getProperty(AuthenticatedParty.PROPERTY);
            assertEquals("replica0", ((AuthenticatedParty) sender).name());
            // the security handler runs last in the out-flow, so the request went out as the bytes it was signed as
            assertTrue(SignedEnvelope.bytesToSend(client.getLastOperationContext()
                    .getMessageContext(WSDLConstants.MESSAGE_LABEL_OUT_VALUE)).isPresent());
        } finally {
            client.cleanup();
            ctx.terminate();
        }
    }

    @Test
    void aCorrectlySignedRawRequestPassesSecurityAndItsAnswerIsSignedByTheReplica() throws Exception {
        // With the bftws module's WS-RM layer engaged, a bare request outside a sequence may be answered with a
        // WS-RM fault; either way it must get past security, and the answer must verify as replica0's.
        long refusals = node.runtime().refusals().total();
        String request = Envelopes.requestWithoutSequence(node.endpoint(), "raw");
        SecuredAxis2Node.HttpAnswer answer = node.post(
                Envelopes.text(deployment.security("client1").sign(Envelopes.parse(request))));
        assertTrue(!answer.body().contains("BFT-WS security refused"), answer.body());
        assertTrue(answer.body().contains(">raw<") || answer.body().contains("wsrm:"), answer.body());
        assertTrue(answer.body().contains("wsse:Security"), "the answer is signed: " + answer.body());
        assertEquals("replica0", deployment.security("client1").verify(answer.body().getBytes()).name());
        assertEquals(refusals, node.runtime().refusals().total());
    }

    @Test
    void aTamperedRequestGetsAFaultSayingTampered() throws Exception {
        long before = node.runtime().refusals().count(RefusalReason.TAMPERED);
        String request = signed(deployment.security("client1"), "pay 10").replace("pay 10", "pay 99");
        assertFault(node.post(request), "tampered", "FailedCheck");
        assertEquals(before + 1, node.runtime().refusals().count(RefusalReason.TAMPERED));
    }

    @Test
    void anUnsignedRequestGetsAFaultSayingUnsigned() throws Exception {
        assertFault(node.post(Envelopes.request(node.endpoint(), "x")), "unsigned", "InvalidSecurity");
    }

    @Test
    void aRequestSignedUnderAnotherCaGetsAFaultSayingUntrusted() throws Exception {
        assertFault(node.post(signed(other.security("client1"), "x")), "untrusted", "FailedAuthentication");
    }

    @Test
    void aReplayOfARequestSignedTenMinutesAgoGetsAFaultSayingStale() throws Exception {
        String old = signed(deployment.securityWithClock("client1", Duration.ofMinutes(-10)), "x");
        assertFault(node.post(old), "stale", "MessageExpired");
    }

    @Test
    void aWrappedRequestGetsAFaultSayingTheBodyIsNotSigned() throws Exception {
        String request = signed(deployment.security("client1"), "pay 10");
        int start = request.indexOf("<soapenv:Body");
        int end = request.indexOf("</soapenv:Body>") + "</soapenv:Body>".length();
        String attack = request.substring(0, start)
                + "<soapenv:Body><ns:echo xmlns:ns=\"http://echo.bftws.org\"><ns:text>pay 99</ns:text></ns:echo>"
                + "</soapenv:Body></soapenv:Envelope>";
        attack = attack.replace("</soapenv:Header>",
                "<w:Wrapper xmlns:w=\"urn:attacker\">" + request.substring(start, end) + "</w:Wrapper></soapenv:Header>");
        assertFault(node.post(attack), "not covered by the signature", "FailedCheck");
    }
}
