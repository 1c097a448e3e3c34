package org.bftws.samples.echo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.transport.http.SimpleHTTPServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The echo sample deployed from its archive in a plain Axis2 HTTP server, called over real HTTP. */
class EchoServiceHttpTest {

    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace E = F.createOMNamespace(EchoService.NS, "e");

    @TempDir
    static Path repo;
    private static SimpleHTTPServer server;
    private static ServiceClient client;
    private static String endpoint;

    @BeforeAll
    static void start() throws Exception {
        EchoServiceArchive.writeTo(repo.resolve("services"));
        String axis2xml = Path.of(EchoServiceHttpTest.class.getResource("/axis2-plain.xml").toURI()).toString();
        ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repo.toString(), axis2xml);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        server = new SimpleHTTPServer(ctx, port);
        server.start();
        endpoint = "http://127.0.0.1:" + port + "/axis2/services/EchoService";
        java.nio.file.Files.createDirectories(repo.resolve("client"));
        client = new ServiceClient(ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repo.resolve("client").toString(), axis2xml), null);
        Options options = new Options();
        options.setTo(new EndpointReference(endpoint));
        options.setTimeOutInMilliSeconds(10_000);
        client.setOptions(options);
    }

    @AfterAll
    static void stop() throws Exception {
        client.cleanup();
        server.stop();
    }

    private static OMElement call(OMElement request) throws AxisFault {
        OMElement reply = client.sendReceive(request);
        reply.build();
        return reply;
    }

    private static OMElement op(String name, String child, String... values) {
        OMElement e = F.createOMElement(name, E);
        for (String v : values) {
            F.createOMElement(child, E, e).setText(v);
        }
        return e;
    }

    private static List<String> texts(OMElement parent, String name) {
        List<String> out = new ArrayList<>();
        for (Iterator<OMElement> it = parent.getChildrenWithName(new QName(EchoService.NS, name)); it.hasNext(); ) {
            out.add(it.next().getText());
        }
        return out;
    }

    @Test
    void echoReturnsTheSameItemsInOrderUnderADifferentWrapper() throws Exception {
        String[] items = new String[100];
        for (int i = 0; i < items.length; i++) {
            items[i] = "item-" + i;
        }
        OMElement reply = call(op("echo", "item", items));
        assertEquals("echoResponse", reply.getLocalName());
        assertEquals(List.of(items), texts(reply, "item"));
    }

    @Test
    void appendCountsAndChainsADigestThatGetAndSetStatePreserve() throws Exception {
        OMElement before = call(op("get_state", "x"));
        int start = Integer.parseInt(before.getFirstElement().getAttributeValue(new QName("count")));
        OMElement r1 = call(op("append", "value", "a"));
        OMElement r2 = call(op("append", "value", "b"));
        assertEquals(start + 1, Integer.parseInt(texts(r1, "count").get(0)));
        assertEquals(start + 2, Integer.parseInt(texts(r2, "count").get(0)));
        String digestAfterB = texts(r2, "digest").get(0);

        OMElement state = call(op("get_state", "x")).getFirstElement();
        assertEquals(digestAfterB, state.getAttributeValue(new QName("digest")));
        call(op("append", "value", "c"));

        OMElement set = F.createOMElement("set_state", E);
        set.addChild(state.cloneOMElement());
        OMElement restored = call(set);
        assertEquals(digestAfterB, texts(restored, "digest").get(0));
        assertEquals(start + 2, Integer.parseInt(texts(restored, "count").get(0)));
    }

    @Test
    void theRunningDigestDependsOnTheOrderOfAppends() {
        EchoState ab = new EchoState(0);
        ab.append("a");
        ab.append("b");
        EchoState ba = new EchoState(0);
        ba.append("b");
        ba.append("a");
        assertTrue(!ab.digestHex().equals(ba.digestHex()));
    }

    @Test
    void aStateWhoseDigestDoesNotMatchItsEntriesIsRefusedWithAFaultThatSaysSo() {
        OMElement set = F.createOMElement("set_state", E);
        OMElement st = F.createOMElement("state", E, set);
        st.addAttribute("digest", "00", null);
        F.createOMElement("entry", E, st).setText("forged");
        AxisFault fault = assertThrows(AxisFault.class, () -> call(set));
        assertTrue(fault.getMessage().contains("does not match"), fault.getMessage());
    }

    @Test
    void paddingMakesTheStateAsLargeAsConfigured() {
        EchoState padded = new EchoState(1000);
        assertEquals(1000, padded.padElements());
        assertThrows(IllegalArgumentException.class, () -> new EchoState(-1));
    }

    @Test
    void theServiceShipsItsWsdlWithAllFourOperations() throws IOException {
        HttpURLConnection c = (HttpURLConnection) new URL(endpoint + "?wsdl").openConnection();
        String wsdl = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        for (String op : List.of("echo", "append", "get_state", "set_state")) {
            assertTrue(wsdl.contains("operation name=\"" + op + "\""), op + " missing from WSDL");
        }
    }
}
