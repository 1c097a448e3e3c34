package org.bftws.security.mac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import javax.xml.namespace.QName;
import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.receivers.RawXMLINOutMessageReceiver;
import org.apache.axis2.transport.http.SimpleHTTPServer;
import org.apache.axis2.util.Utils;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.security.AuthenticatedParty;
import org.bftws.security.RefusalReason;
import org.bftws.axis2.security.SecurityRuntime;
import org.bftws.wire.KeyedGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mac profile through real Axis2 engines over HTTP on loopback, with the bftws module's WS-RM layer: node
 * replica0 sends a PBFT bundle to replica1's control service (CreateSequence, the numbered message and both answers
 * all MAC-authenticated); a client's request to the same service is WS-Security signed and its answer MAC-authenticated
 * with the key the client shares with the node; a forged MAC gets a SOAP fault that says so and is counted.
 */
class MacHttpTest {
    @TempDir
    static Path dir;
    static KeyedGroup group;
    static int port;
    static ConfigurationContext server;
    static SimpleHTTPServer http;

    @BeforeAll
    static void start() throws Exception {
        port = org.bftws.axis2.standalone.NodeServer.freePort();
        group = new KeyedGroup(dir, "mac", "EchoService", port + 1, port, port + 2, port + 3);
        server = context(dir.resolve("server-repo"), "replica1");
        server.getAxisConfiguration().addService(Utils.createSimpleService(new QName("BftControl"),
                new RawXMLINOutMessageReceiver(), TestControl.class.getName(), new QName("Messages")));
        http = new SimpleHTTPServer(server, port);
        http.start();
    }

    @AfterAll
    static void stop() throws Exception {
        http.stop();
        server.terminate();
    }

    static ConfigurationContext context(Path repository, String party) throws Exception {
        Path modules = Files.createDirectories(repository.resolve("modules"));
        Files.copy(Path.of("target/axis2-modules/addressing.mar"), modules.resolve("addressing.mar"),
                StandardCopyOption.REPLACE_EXISTING);
        ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repository.toString(), Path.of(MacHttpTest.class.getResource("/axis2-secured.xml").toURI()).toString());
        ctx.getAxisConfiguration().engageModule("addressing");
        ctx.getAxisConfiguration().engageModule("bftws");
        SecurityRuntime.install(ctx, new SecurityRuntime(group.config, party));
        return ctx;
    }

    static String control() {
        return "http://127.0.0.1:" + port + KeyedGroup.controlPath();
    }

    /** {@code party} sends the test bundle to replica1's control service; returns the answer and the answer's context. */
    static Exchanged send(String party) throws Exception {
        ConfigurationContext ctx = context(dir.resolve(party + "-repo"), party);
        ServiceClient client = new ServiceClient(ctx, null);
        try {
            client.engageModule("addressing");
            client.engageModule("bftws");
            Options options = new Options();
            options.setTo(new EndpointReference(control()));
            options.setAction("urn:Messages");
            options.setTimeOutInMilliSeconds(10_000);
            client.setOptions(options);
            OMElement bundle = org.apache.axiom.om.util.AXIOMUtil.stringToOM(MacFixtures.bundle(group));
            OMElement answer = client.sendReceive(bundle);
            answer.build();
            MessageContext in = client.getLastOperationContext().getMessageContext(WSDLConstants.MESSAGE_LABEL_IN_VALUE);
            return new Exchanged(answer, (AuthenticatedParty) in.getProperty(AuthenticatedParty.PROPERTY),
                    in.getEnvelope().toString());
        } finally {
            client.cleanup();
            ctx.terminate();
        }
    }

    record Exchanged(OMElement answer, AuthenticatedParty answeredBy, String answerEnvelope) {
        String attr(String name) {
            return answer.getAttributeValue(new QName(name));
        }
    }

    @Test
    void aBundleFromAPeerNodeArrivesMacAuthenticatedAndItsAnswerIsMacAuthenticatedBack() throws Exception {
        long refusals = SecurityRuntime.of(server).refusals().total();
        Exchanged x = send("replica0");
        assertEquals("replica0", x.attr("from"), "the control service learns the authenticated sender");
        assertEquals("none", x.attr("messages"), "a MAC over the bytes decodes nothing: the control service decodes once");
        assertEquals("true", x.attr("mac"));
        assertEquals("false", x.attr("wsse"), "no WS-Security signature between nodes");
        assertEquals("replica1", x.answeredBy().name());
        assertTrue(x.answerEnvelope().contains("Authenticator") && x.answerEnvelope().contains("to=\"replica0\""),
                x.answerEnvelope());
        assertEquals(refusals, SecurityRuntime.of(server).refusals().total());
    }

    @Test
    void aClientsRequestCarriesARequestAuthenticatorAndTheAnswerIsMacAuthenticatedWithTheKeyTheyShare()
            throws Exception {
        Exchanged x = send("client1");
        assertEquals("client1", x.attr("from"));
        assertEquals("true", x.attr("mac"), "one HMAC per node, which other replicas check on a relayed copy");
        assertEquals("false", x.attr("wsse"), "no public-key signature on a request");
        assertEquals("replica1", x.answeredBy().name());
        assertTrue(x.answerEnvelope().contains("Authenticator") && x.answerEnvelope().contains("to=\"client1\"")
                && !x.answerEnvelope().contains("wsse:Security"), x.answerEnvelope());
    }

    @Test
    void aMessageWithAForgedMacGetsAFaultSayingMacMismatchAndIsCounted() throws Exception {
        long before = SecurityRuntime.of(server).refusals().count(RefusalReason.MAC_MISMATCH);
        MacAuthenticator replica0 = MacFixtures.authenticator(group, "replica0");
        String wire = MacFixtures.sent(replica0, group, control(),
                MacFixtures.envelope(control(), "urn:uuid:s-http", MacFixtures.bundle(group)));
        String forged = wire.replace("lastExecuted=\"4\"", "lastExecuted=\"40\"");
        HttpURLConnection c = (HttpURLConnection) new URL(control()).openConnection();
        c.setDoOutput(true);
        c.setConnectTimeout(5000);
        c.setReadTimeout(10000);
        c.setRequestProperty("Content-Type", "text/xml; charset=UTF-8");
        c.setRequestProperty("SOAPAction", "\"urn:Messages\"");
        c.getOutputStream().write(forged.getBytes(StandardCharsets.UTF_8));
        int status = c.getResponseCode();
        String body;
        try (InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(500, status, body);
        assertTrue(body.contains("BFT-WS security refused the message: MAC mismatch"), body);
        assertTrue(body.contains("FailedCheck"), body);
        assertEquals(before + 1, SecurityRuntime.of(server).refusals().count(RefusalReason.MAC_MISMATCH));
    }
}
