package org.bftws.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.bftws.axis2.monitoring.HttpAdmissionCounters;
import org.bftws.axis2.security.SecurityRuntime;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.config.TlsConfig;
import org.bftws.security.DeploymentTrust;
import org.bftws.security.KeyGenerator;
import org.bftws.security.PartyKeystore;
import org.bftws.server.gateway.Gateway;
import org.bftws.tls.DeploymentTls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four echo replicas in embedded Jetty serving HTTPS (replicas.xml's {@code <tls/>}), called through a gateway whose
 * group side is HTTPS as client1 and whose callers reach it over HTTPS, on real sockets on 127.0.0.1: calls are
 * decided; a plaintext request to a replica's HTTPS port is refused and counted while the rest goes on; the SOAP
 * replica channel runs over Jetty's HTTPS; a gateway naming a caller CA serves callers it issued and refuses the
 * others. One keygen for the Jetty group, one for the SOAP-channel group, one for a foreign caller.
 */
class ReplicasOverHttpsTest {
    private static final String NS = "http://bftws.org/samples/echo";
    private static final char[] PASSWORD = "pw".toCharArray();

    @TempDir
    static Path dir;
    private static EchoGroup group;
    private static Gateway gateway;

    @BeforeAll
    static void start() throws Exception {
        group = new EchoGroup(dir.resolve("jetty"), false, NodeContainer.JETTY, true, "binary");
        gateway = Gateway.start(new InetSocketAddress("127.0.0.1", 0), group.replicasXml, "client1", 4, Map.of(),
                EchoGroup.clientRepository());
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (group != null) {
            group.close();
        }
    }

    private static Path keys(EchoGroup g) {
        return g.replicasXml.resolveSibling("keys");
    }

    /** An HTTPS client presenting {@code party}'s certificate from {@code keys}, trusting {@code keys}' CA. */
    private static HttpClient caller(Path keys, String party, Path caKeys) {
        PartyKeystore own = PartyKeystore.load(keys.resolve(party + ".p12"), party, PASSWORD);
        X509Certificate ca = DeploymentTrust.load(caKeys.resolve("truststore.p12"), PASSWORD).ca().orElseThrow();
        DeploymentTls tls = DeploymentTls.of(TlsConfig.defaults(), own, ca);
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).sslContext(tls.context())
                .sslParameters(tls.parameters(false)).build();
    }

    private static HttpResponse<String> echo(HttpClient http, Gateway gw, String item) throws Exception {
        String body = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>"
                + "<e:echo xmlns:e=\"" + NS + "\"><e:item>" + item + "</e:item></e:echo></s:Body></s:Envelope>";
        return http.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + gw.address().getPort()
                        + "/axis2/services/EchoService")).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"" + NS + "/echo\"")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertEchoed(HttpResponse<String> r, String item) {
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().matches("(?s).*<[^>]*item>" + item + "</.*"), r.body());
    }

    @Test
    void theGatewayCallsReplicasInJettyOverHttpsAndServesItsCallersOverHttps() throws Exception {
        assertTrue(gateway.https());
        HttpClient http = caller(keys(group), "client1", keys(group));
        for (int n = 0; n < 3; n++) {
            assertEchoed(echo(http, gateway, "tls" + n), "tls" + n);
        }
        for (int i = 0; i < 4; i++) {
            HttpAdmissionCounters c = HttpAdmissionCounters.of(group.context(i));
            assertTrue(c.tlsHandshakes.get() > 0, "replica" + i + ": " + c);
            assertEquals(0, SecurityRuntime.of(group.context(i)).tls().orElseThrow().refusals(), "replica" + i);
        }
    }

    @Test
    void theStatusPageIsServedOverJettysTlsToTheReadersTheSettingNamesOnly() throws Exception {
        URI status = URI.create("https://127.0.0.1:" + group.port(1) + "/bftws/status");
        HttpResponse<String> r = caller(keys(group), "client1", keys(group)).send(HttpRequest.newBuilder(status)
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().startsWith("{\"party\":\"replica1\""), r.body());
        HttpResponse<String> refused = caller(keys(group), "replica2", keys(group)).send(HttpRequest.newBuilder(status)
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(403, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("names replica2"), refused.body());
    }

    @Test
    void theGatewayFetchesTheWsdlFromTheReplicasOverHttpsAndServesItWithItsHttpsAddress() throws Exception {
        String address = "https://127.0.0.1:" + gateway.address().getPort() + "/axis2/services/EchoService";
        HttpResponse<String> r = caller(keys(group), "client1", keys(group)).send(HttpRequest.newBuilder(
                URI.create(address + "?wsdl")).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("location=\"" + address + "\""), r.body());
        assertFalse(r.body().contains("127.0.0.1:" + group.port(0)), "no replica's own address is left: " + r.body());
    }

    @Test
    void aPlaintextRequestToAJettyHttpsPortIsRefusedAndCountedAndTheGroupGoesOn() throws Exception {
        HttpAdmissionCounters replica2 = HttpAdmissionCounters.of(group.context(2));
        long failed = replica2.tlsFailed.get();
        String answer;
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), group.port(2))) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write(("GET /bftws/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            answer = firstLine(s.getInputStream());
        }
        assertFalse(answer.startsWith("HTTP/1.1 200"), "a plaintext request was served: " + answer);
        await(() -> replica2.tlsFailed.get() > failed, "replica2 counts the plaintext connection");
        assertEchoed(echo(caller(keys(group), "client1", keys(group)), gateway, "after"), "after");
    }

    private static String firstLine(InputStream in) {
        StringBuilder b = new StringBuilder();
        try {
            for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
                b.append((char) c);
            }
        } catch (IOException e) {
            // reset by the server: no answer
        }
        return b.toString().trim();
    }

    @Test
    void theSoapReplicaChannelRunsOverJettysHttps() throws Exception {
        try (EchoGroup soap = new EchoGroup(dir.resolve("soap"), false, NodeContainer.JETTY, true, "soap")) {
            Gateway gw = Gateway.start(new InetSocketAddress("127.0.0.1", 0), soap.replicasXml, "client1", 2, Map.of(),
                    EchoGroup.clientRepository());
            try {
                HttpClient http = caller(keys(soap), "client1", keys(soap));
                for (int n = 0; n < 3; n++) {
                    assertEchoed(echo(http, gw, "soap" + n), "soap" + n);
                }
            } finally {
                gw.close();
            }
            for (int i = 0; i < 4; i++) {
                Map<String, Long> counters = org.bftws.axis2.node.BftwsNode.of(soap.context(i)).replica().counters();
                assertTrue(counters.getOrDefault("PBFT bundles sent", 0L) > 0, "replica" + i + ": " + counters);
                assertEquals(0, HttpAdmissionCounters.of(soap.context(i)).tlsFailed.get(), "replica" + i);
            }
        }
    }

    @Test
    void aGatewayNamingACallerCaServesCallersItIssuedAndRefusesOthers() throws Exception {
        // the operator's caller CA: here the deployment's own CA, exported as PEM
        X509Certificate ca = DeploymentTrust.load(keys(group).resolve("truststore.p12"), PASSWORD).ca().orElseThrow();
        Path pem = Files.writeString(dir.resolve("callers.pem"), "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(ca.getEncoded())
                + "\n-----END CERTIFICATE-----\n");
        // a caller whose certificate another CA issued
        Path foreign = Files.createDirectories(dir.resolve("foreign"));
        Path xml = Files.writeString(foreign.resolve("replicas.xml"), "<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>\n"
                + "<group service=\"S\" endpoint=\"http://s.test/axis2/services/S\" f=\"1\" replicaChannel=\"soap\">\n");
        for (int i = 0; i < 4; i++) {
            Files.writeString(xml, "<node id=\"" + i + "\" name=\"n" + i + "\" serviceEndpoint=\"http://127.0.0.1:" + (9 + i)
                    + "/axis2/services/S\" controlEndpoint=\"http://127.0.0.1:" + (9 + i) + "/axis2/services/BftControl\"/>\n",
                    java.nio.file.StandardOpenOption.APPEND);
        }
        Files.writeString(xml, "</group>\n<client name=\"client1\"/>\n</replicas>\n", java.nio.file.StandardOpenOption.APPEND);
        new KeyGenerator(ReplicasConfigReader.read(xml, KeyFileCheck.none()), false).run();

        Gateway strict = Gateway.start(new InetSocketAddress("127.0.0.1", 0), group.replicasXml, "client1", 2,
                Map.of(), EchoGroup.clientRepository(), pem);
        try {
            // the positive control, on the same gateway: a caller the CA issued is served, over HttpClient and over
            // the raw probe the anonymous caller uses below
            assertEchoed(echo(caller(keys(group), "client1", keys(group)), strict, "issued"), "issued");
            DeploymentTls issued = DeploymentTls.of(TlsConfig.defaults(), PartyKeystore.load(keys(group)
                    .resolve("client1.p12"), "client1", PASSWORD), ca);
            assertEquals("CN=client1, O=BFT-WS: HTTP/1.1 200 OK", probe(issued.context(), strict));
            assertEquals(0, strict.refusedCallers());

            // presents another CA's certificate (and trusts the gateway's CA, so that the gateway is the one to
            // judge): the --caller-ca check refuses and counts it
            HttpClient stranger = caller(foreign.resolve("keys"), "client1", keys(group));
            IOException refused = assertThrows(IOException.class, () -> echo(stranger, strict, "stranger"));
            assertFalse(refused instanceof java.net.ConnectException, refused.toString());
            await(() -> strict.refusedCallers() == 1, "the gateway counts the certificate of another CA");

            // presents none: the handshake reaches the gateway's TLS (its certificate is seen), and the gateway,
            // requiring one, ends the connection before any byte of HTTP. (The JDK's HTTPS server closes without
            // sending the alert, and refuses an empty certificate before the --caller-ca check sees it.)
            String anonymous = probe(anonymous(ca), strict);
            assertTrue(anonymous.startsWith("CN=client1, O=BFT-WS: ended "), anonymous);
            assertEquals(1, strict.refusedCallers(), "nothing else was counted");
        } finally {
            strict.close();
        }
    }

    /**
     * A TLS connection to {@code gw} with {@code tls}: the gateway's certificate's subject, then the status line of
     * its answer to a GET of the service's WSDL, or "ended " and how the connection ended without one.
     */
    private static String probe(javax.net.ssl.SSLContext tls, Gateway gw) throws IOException {
        try (Socket plain = new Socket(InetAddress.getLoopbackAddress(), gw.address().getPort())) {
            plain.setSoTimeout(30_000);
            javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) tls.getSocketFactory().createSocket(plain,
                    "127.0.0.1", gw.address().getPort(), true);
            s.setUseClientMode(true);
            s.startHandshake(); // TLS 1.3: the client's part ends before the server judged the client's certificate
            String peer = s.getSession().getPeerPrincipal().getName().replace(",", ", ");
            try {
                s.getOutputStream().write(("GET /axis2/services/EchoService?wsdl HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                String line = firstLine(s.getInputStream());
                return peer + ": " + (line.isEmpty() ? "ended at the end of the stream" : line);
            } catch (java.net.SocketException | javax.net.ssl.SSLException e) {
                return peer + ": ended " + e;
            }
        }
    }

    @Test
    void aCallerCaWithoutTlsIsRefusedWithTheReason() throws Exception {
        Path plain = Files.writeString(group.replicasXml.resolveSibling("plain.xml"), Files.readString(group.replicasXml)
                .replace("<tls/>\n", "").replace("https://", "http://"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Gateway.start(
                new InetSocketAddress("127.0.0.1", 0), plain, "client1", 1, Map.of(), EchoGroup.clientRepository(),
                dir.resolve("callers.pem")));
        assertTrue(e.getMessage().startsWith("--caller-ca needs replicas.xml's <tls>"), e.getMessage());
    }

    /** A client context without a certificate of its own that trusts {@code ca} (and checks no host name). */
    private static javax.net.ssl.SSLContext anonymous(X509Certificate ca) throws Exception {
        javax.net.ssl.SSLContext c = javax.net.ssl.SSLContext.getInstance("TLS");
        c.init(null, new javax.net.ssl.TrustManager[] {new javax.net.ssl.X509ExtendedTrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String a, Socket s) { }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String a, Socket s)
                    throws java.security.cert.CertificateException {
                checkServerTrusted(chain, a);
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String a, javax.net.ssl.SSLEngine e) { }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String a, javax.net.ssl.SSLEngine e)
                    throws java.security.cert.CertificateException {
                checkServerTrusted(chain, a);
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String a) { }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String a)
                    throws java.security.cert.CertificateException {
                try {
                    chain[0].verify(ca.getPublicKey());
                } catch (java.security.GeneralSecurityException e) {
                    throw new java.security.cert.CertificateException(e);
                }
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[] {ca};
            }
        }}, null);
        return c;
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within 10 s: " + what);
            }
            Thread.sleep(20);
        }
    }
}
