package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

import org.bftws.wire.WireLimits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a replica logs when it refuses malformed input over HTTP: one line per message that names the peer and the
 * reason, never a stack trace; repeats from one peer summarised. Axis2's own faults (an action the service does not
 * have) keep their full log: only the faults the module raises on purpose are quietened.
 */
class QuietRefusalsHttpTest {
    private static final String WSA = "http://www.w3.org/2005/08/addressing";

    @TempDir
    Path dir;
    private EchoReplicas group;
    private String endpoint;

    /** One replica of a mac group per test: the refusal log summarises repeats per peer, always 127.0.0.1 here. */
    @BeforeEach
    void start() throws Exception {
        int[] p = NodeServer.freePorts(4);
        group = new EchoReplicas(dir, "mac", "", List.of(EchoReplicas.endpoint(p[0]), EchoReplicas.endpoint(p[1]),
                EchoReplicas.endpoint(p[2]), EchoReplicas.endpoint(p[3])));
        group.startNode(0, p[0], null);
        endpoint = EchoReplicas.endpoint(p[0]);
    }

    @AfterEach
    void stop() throws Exception {
        group.close();
    }

    private static String envelope(String action, String headers, String text) {
        return "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:wsa=\"" + WSA
                + "\"><soapenv:Header><wsa:Action>" + action + "</wsa:Action><wsa:MessageID>urn:uuid:q-1</wsa:MessageID>"
                + headers + "</soapenv:Header><soapenv:Body><ns:echo xmlns:ns=\"http://bftws.org/samples/echo\">"
                + "<ns:text>" + text + "</ns:text></ns:echo></soapenv:Body></soapenv:Envelope>";
    }

    private static String echo(String headers) {
        return envelope("http://bftws.org/samples/echo/echo", headers, "x");
    }

    private final HttpClient http = HttpClient.newHttpClient();

    private int post(String url, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"\"")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    private void assertOneLine(String url, String body, String reason) throws Exception {
        List<String> lines;
        try (CapturedLog log = new CapturedLog()) {
            int status = post(url, body);
            assertTrue(status >= 400, "refused: " + status);
            lines = log.lines();
        }
        String all = String.join("\n", lines);
        assertEquals(1, lines.size(), all);
        assertTrue(lines.get(0).contains("refused a message from 127.0.0.1: " + reason), all);
        assertTrue(lines.get(0).contains("refusals") || lines.get(0).contains("requests:"), "names its counter: " + all);
    }

    @Test
    void textThatIsNotXmlIsOneLine() throws Exception {
        assertOneLine(endpoint, "hello, this is not XML", "not a SOAP envelope");
    }

    @Test
    void xmlThatIsNotSoapIsOneLine() throws Exception {
        assertOneLine(endpoint, "<?xml version=\"1.0\"?><order><item/></order>", "not a SOAP envelope");
    }

    @Test
    void soapWithoutWsrmOrAuthenticatorIsOneLine() throws Exception {
        assertOneLine(endpoint, echo(""), "BFT-WS security refused the message: unsigned");
    }

    @Test
    void aWrongMacAuthenticatorIsOneLine() throws Exception {
        String mac = Base64.getEncoder().encodeToString(new byte[32]);
        assertOneLine(endpoint, echo("<mac:Authenticator xmlns:mac=\"urn:bftws:mac:1\" from=\"replica1\" to=\"replica0\">"
                + mac + "</mac:Authenticator>"), "BFT-WS security refused the message: MAC mismatch");
    }

    @Test
    void aForgedSignatureIsOneLine() throws Exception {
        assertOneLine(endpoint, echo("<wsse:Security xmlns:wsse=\"http://docs.oasis-open.org/wss/2004/01/"
                + "oasis-200401-wss-wssecurity-secext-1.0.xsd\"><ds:Signature xmlns:ds=\"http://www.w3.org/2000/09/"
                + "xmldsig#\"><ds:SignedInfo/><ds:SignatureValue>AAAA</ds:SignatureValue></ds:Signature>"
                + "</wsse:Security>"), "BFT-WS security refused the message: tampered");
    }

    @Test
    void anOversizedRequestIsOneLine() throws Exception {
        assertOneLine(endpoint, envelope("urn:x", "", "y".repeat(WireLimits.DEFAULT_MAX_PAYLOAD_BYTES)),
                "bftws: request larger than");
    }

    @Test
    void aThousandRefusalsFromOnePeerWriteABoundedNumberOfLinesWithTheirSummary() throws Exception {
        List<String> lines;
        try (CapturedLog log = new CapturedLog()) {
            for (int i = 0; i < 1000; i++) {
                post(endpoint, echo(""));
            }
            lines = log.lines();
        }
        String all = String.join("\n", lines);
        assertTrue(lines.size() <= 12, lines.size() + " lines:\n" + all); // 1, 2, 4, ..., 512, and a minute's summary
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("\tat ")), all);
        assertTrue(lines.stream().anyMatch(l -> l.contains("refused 512 messages from 127.0.0.1: unsigned")), all);
    }

    @Test
    void axis2sOwnFaultsKeepTheirStackTrace() throws Exception {
        // an action EchoService does not have: refused by Axis2's addressing dispatcher, not by the module
        List<String> lines;
        try (CapturedLog log = new CapturedLog()) {
            post(endpoint, envelope("urn:no-such-operation", "", "x"));
            lines = log.lines();
        }
        String all = String.join("\n", lines);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("SEVERE org.apache.axis2.engine.AxisEngine")), all);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("\tat org.apache.axis2")), all);
    }
}
