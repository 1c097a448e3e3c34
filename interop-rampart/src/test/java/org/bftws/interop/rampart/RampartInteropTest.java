package org.bftws.interop.rampart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.util.List;
import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.transport.http.SimpleHTTPServer;
import org.apache.axis2.wsdl.WSDLConstants;
import org.apache.neethi.Policy;
import org.apache.neethi.PolicyEngine;
import org.apache.rampart.RampartMessageData;
import org.apache.wss4j.dom.engine.WSSecurityEngineResult;
import org.apache.wss4j.dom.handler.WSHandlerConstants;
import org.apache.wss4j.dom.handler.WSHandlerResult;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfig;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.security.KeyGenerator;
import org.bftws.security.RefusalReason;
import org.bftws.axis2.security.SecurityRuntime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An unmodified Apache Rampart 1.8.0 client with an ordinary X.509 signing policy calls the echo sample on a bftws
 * node (wssec profile, WSS4J) over HTTP on a loopback port. The node verifies Rampart's signature; Rampart verifies
 * the node's signature on the reply. The call goes without WS-RM (the node engages only the security handler of
 * the bftws module): Rampart does not sign the CreateSequence that the bftws OutHandler sends for it.
 */
class RampartInteropTest {
    private static final String ECHO_NS = "http://bftws.org/samples/echo";
    private static final Path ARCHIVES = Path.of("target/axis2-archives");

    @TempDir
    static Path dir;
    static ConfigurationContext nodeContext;
    static SimpleHTTPServer node;
    static String endpoint;

    @BeforeAll
    static void startNode() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path conf = dir.resolve("replicas.xml");
        StringBuilder xml = new StringBuilder("<replicas xmlns=\"urn:bftws:replicas:1\">"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>"
                + "<group service=\"EchoService\" endpoint=\"http://echo.bftws.group/axis2/services/EchoService\" f=\"1\">"
                + "<security profile=\"wssec\"/>");
        int[] channels = org.bftws.axis2.standalone.NodeServer.freePortsAvoiding(4, java.util.List.of(port, port + 1, port + 2, port + 3));
        for (int i = 0; i < 4; i++) {
            int p = port + i;
            xml.append("<node id=\"").append(i).append("\" name=\"replica").append(i)
                    .append("\" serviceEndpoint=\"http://127.0.0.1:").append(p).append("/axis2/services/EchoService\"")
                    .append(" controlEndpoint=\"http://127.0.0.1:").append(p).append("/axis2/services/BftControl\"")
                    .append(" channelEndpoint=\"tcp://127.0.0.1:").append(channels[i]).append("\"/>");
        }
        xml.append("</group><client name=\"client1\"/></replicas>");
        Files.writeString(conf, xml);
        new KeyGenerator(ReplicasConfigReader.read(conf, KeyFileCheck.none()), false).run();
        ReplicasConfig config = ReplicasConfigReader.read(conf);

        Path repo = repository(dir.resolve("node-repo"), "addressing.mar");
        Files.createDirectories(repo.resolve("services"));
        Files.copy(ARCHIVES.resolve("EchoService.aar"), repo.resolve("services/EchoService.aar"));
        nodeContext = ConfigurationContextFactory.createConfigurationContextFromFileSystem(repo.toString(),
                resource("/axis2-node.xml"));
        nodeContext.getAxisConfiguration().engageModule("addressing");
        // the bftws security handler alone (test module bftws-security, see its module.xml): the full bftws module
        // would demand WS-RM, and WS-RM messages the bftws OutHandler creates are not signed by Rampart
        nodeContext.getAxisConfiguration().engageModule("bftws-security");
        SecurityRuntime.install(nodeContext, new SecurityRuntime(config, "replica0"));
        node = new SimpleHTTPServer(nodeContext, port);
        node.start();
        endpoint = "http://127.0.0.1:" + port + "/axis2/services/EchoService";
    }

    @AfterAll
    static void stopNode() throws Exception {
        node.stop();
        nodeContext.terminate();
    }

    private static Path repository(Path repo, String... modules) throws Exception {
        Files.createDirectories(repo.resolve("modules"));
        for (String m : modules) {
            Files.copy(ARCHIVES.resolve(m), repo.resolve("modules").resolve(m), StandardCopyOption.REPLACE_EXISTING);
        }
        return repo;
    }

    private static String resource(String name) throws Exception {
        return Path.of(RampartInteropTest.class.getResource(name).toURI()).toString();
    }

    private static Policy policy() throws Exception {
        String text = new String(RampartInteropTest.class.getResourceAsStream("/rampart-sign-policy.xml").readAllBytes(),
                StandardCharsets.UTF_8)
                .replace("${keystore}", dir.resolve("keys/client1.p12").toString())
                .replace("${truststore}", dir.resolve("keys/truststore.p12").toString())
                .replace("${password}", "pw");
        OMElement element = OMXMLBuilderFactory.createOMBuilder(
                new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
        return PolicyEngine.getPolicy(element);
    }

    /** A Rampart client (addressing + rampart engaged, the signing policy set) addressed to {@code to}. */
    private static ServiceClient rampartClient(String to, String name) throws Exception {
        Path repo = repository(dir.resolve(name), "addressing.mar", "rampart.mar");
        ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repo.toString(), resource("/axis2-node.xml"));
        ServiceClient client = new ServiceClient(ctx, null);
        client.engageModule("addressing");
        client.engageModule("rampart");
        Options options = new Options();
        options.setTo(new EndpointReference(to));
        options.setAction("http://bftws.org/samples/echo/echo");
        options.setTimeOutInMilliSeconds(20_000);
        options.setProperty(RampartMessageData.KEY_RAMPART_POLICY, policy());
        client.setOptions(options);
        return client;
    }

    private static OMElement echo(String... items) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMElement e = f.createOMElement("echo", f.createOMNamespace(ECHO_NS, "e"));
        for (String item : items) {
            f.createOMElement("item", e.getNamespace(), e).setText(item);
        }
        return e;
    }

    @Test
    void aRampartSignedRequestIsVerifiedByTheNodeAndRampartVerifiesTheNodesSignedReply() throws Exception {
        long refusalsBefore = SecurityRuntime.of(nodeContext).refusals().total();
        ServiceClient client = rampartClient(endpoint, "client-repo");
        try {
            OMElement reply = client.sendReceive(echo("interop", "works"));
            reply.build();
            assertEquals("echoResponse", reply.getLocalName());
            assertTrue(reply.toString().contains("interop") && reply.toString().contains("works"), reply.toString());
            // Rampart's own verification results for the reply: a signature by replica0's certificate
            Object results = client.getLastOperationContext().getMessageContext(WSDLConstants.MESSAGE_LABEL_IN_VALUE)
                    .getProperty(WSHandlerConstants.RECV_RESULTS);
            @SuppressWarnings("unchecked")
            List<WSHandlerResult> handlerResults = (List<WSHandlerResult>) results;
            X509Certificate signer = null;
            for (WSHandlerResult r : handlerResults) {
                for (WSSecurityEngineResult e : r.getResults()) {
                    if (e.get(WSSecurityEngineResult.TAG_X509_CERTIFICATE) instanceof X509Certificate c) {
                        signer = c;
                    }
                }
            }
            assertTrue(signer != null && signer.getSubjectX500Principal().getName().startsWith("CN=replica0"),
                    "Rampart verified a signature by " + signer);
            assertEquals(refusalsBefore, SecurityRuntime.of(nodeContext).refusals().total());
        } finally {
            client.cleanup();
        }
    }

    @Test
    void aRampartSignedRequestChangedOnTheWayGetsAFaultSayingTampered() throws Exception {
        long before = SecurityRuntime.of(nodeContext).refusals().count(RefusalReason.TAMPERED);
        try (TamperingRelay relay = new TamperingRelay(endpoint, ">pay 10<", ">pay 99<")) {
            ServiceClient client = rampartClient(relay.endpoint(), "tamper-client-repo");
            try {
                AxisFault fault = assertThrows(AxisFault.class, () -> client.sendReceive(echo("pay 10")));
                assertEquals(500, relay.lastStatus, relay.lastAnswer);
                assertTrue(relay.lastAnswer.contains("BFT-WS security refused the message: tampered"), relay.lastAnswer);
                assertTrue(String.valueOf(fault.getMessage()).contains("tampered"), fault.getMessage());
            } finally {
                client.cleanup();
            }
        }
        assertEquals(before + 1, SecurityRuntime.of(nodeContext).refusals().count(RefusalReason.TAMPERED));
    }
}
