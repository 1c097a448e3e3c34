package org.bftws.samples.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.axiom.om.OMElement;
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

/** The key-value sample deployed from its archive in a plain Axis2 HTTP server (no BFT-WS), called over HTTP. */
class KvServiceHttpTest {

    @TempDir
    static Path repo;
    private static SimpleHTTPServer server;
    private static ServiceClient client;
    private static String endpoint;

    @BeforeAll
    static void start() throws Exception {
        KvServiceArchive.writeTo(repo.resolve("services"));
        String axis2xml = Path.of(KvServiceHttpTest.class.getResource("/axis2-plain.xml").toURI()).toString();
        ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repo.toString(), axis2xml);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        server = new SimpleHTTPServer(ctx, port);
        server.start();
        endpoint = "http://127.0.0.1:" + port + "/axis2/services/KvService";
        Files.createDirectories(repo.resolve("client"));
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
        client.getOptions().setAction(KvRequests.action(request));
        OMElement reply = client.sendReceive(request);
        reply.build();
        return reply;
    }

    @Test
    void aTransferTheBalanceDoesNotCoverComesBackAsASoapFaultWithItsReason() throws Exception {
        call(KvRequests.put("http-alice", 3));
        AxisFault fault = assertThrows(AxisFault.class, () -> call(KvRequests.transfer("http-alice", "http-bob", 5)));
        assertEquals("insufficient balance: account 'http-alice' holds 3, the transfer needs 5", fault.getReason());
        OMElement moved = call(KvRequests.transfer("http-alice", "http-bob", 3));
        assertEquals("0", KvRequests.text(moved, "fromBalance"));
        assertEquals("3", KvRequests.text(call(KvRequests.get("http-bob")), "value"));
    }

    @Test
    void aRequestWithoutItsKeyIsAFaultNotACrash() throws Exception {
        OMElement get = KvRequests.get("x");
        get.getFirstElement().detach();
        AxisFault fault = assertThrows(AxisFault.class, () -> call(get));
        assertEquals("get needs a {" + KvService.NS + "}key child", fault.getReason());
    }

    @Test
    void theServiceShipsItsWsdlWithAllSixOperations() throws IOException {
        HttpURLConnection c = (HttpURLConnection) new URL(endpoint + "?wsdl").openConnection();
        String wsdl = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        for (String op : List.of("get", "put", "compareAndSet", "transfer", "get_state", "set_state")) {
            assertTrue(wsdl.contains("operation name=\"" + op + "\""), op + " missing from WSDL");
        }
    }
}
