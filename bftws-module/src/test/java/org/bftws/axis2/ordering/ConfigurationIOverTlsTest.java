package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLSocket;

import org.apache.axis2.client.ServiceClient;
import org.bftws.axis2.monitoring.HttpAdmissionCounters;
import org.bftws.axis2.security.SecurityRuntime;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicaChannelKind;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.config.TlsConfig;
import org.bftws.security.DeploymentTrust;
import org.bftws.security.KeyGenerator;
import org.bftws.security.PartyKeystore;
import org.bftws.tls.DeploymentTls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configuration I end to end over TLS (replicas.xml's {@code <tls/>}), on real sockets on 127.0.0.1: the nodes serve
 * HTTPS on their own server, the client presents its party certificate, and the PBFT messages travel on the binary
 * channel over TLS; a client certificate from another CA, a plaintext request to the HTTPS port and a server that is
 * not the node replicas.xml puts at its address are each refused and counted while the group goes on serving. One
 * group (and one keygen) for the class; {@link #theSoapReplicaChannelRunsOverHttps} starts a second on the SOAP
 * channel.
 */
class ConfigurationIOverTlsTest {
    private static final char[] PASSWORD = "pw".toCharArray();

    @TempDir
    static Path dir;
    private static BftTestGroup group;
    private static ServiceClient client;
    private static int appended;

    @BeforeAll
    static void start() throws Exception {
        group = BftTestGroup.startTls(Files.createDirectories(dir.resolve("binary")), "mac", BftTestGroup.protocol(4, "2s"),
                ReplicaChannelKind.BINARY);
        client = group.client();
    }

    @AfterAll
    static void stop() throws Exception {
        if (group != null) {
            group.close();
        }
    }

    private static synchronized void appendAndCheck(ServiceClient c, int times) throws Exception {
        for (int i = 0; i < times; i++) {
            appended++;
            assertEquals(Integer.toString(appended),
                    BftTestGroup.child(BftTestGroup.call(c, BftTestGroup.append("v" + appended)), "count"));
        }
    }

    private static DeploymentTls tlsOf(ServiceClient c) {
        return SecurityRuntime.of(c.getServiceContext().getConfigurationContext()).tls().orElseThrow();
    }

    private static HttpAdmissionCounters http(int node) {
        return HttpAdmissionCounters.of(group.context(node));
    }

    @Test
    void aClientCallsTheGroupOverHttpsWithOneHandshakePerConnectionNeverPerRequest() throws Exception {
        int calls = 12;
        long before = tlsOf(client).handshakes();
        long[] nodeBefore = new long[4];
        for (int i = 0; i < 4; i++) {
            nodeBefore[i] = http(i).tlsHandshakes.get();
        }
        for (int k = 0; k < calls; k++) {
            appendAndCheck(client, 1);
            // A replica behind the decision would still hold the call's exchange when the next call starts, and that
            // call would take another connection: each call waits until every replica executed and answered.
            awaitEveryReplicaAnswered(appended);
        }
        StringBuilder seen = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            seen.append("node ").append(i).append(": ").append(http(i)).append("; ");
        }
        long handshakes = tlsOf(client).handshakes() - before;
        for (int i = 0; i < 4; i++) {
            assertTrue(group.nodes[i].https(), "node " + i + " serves HTTPS");
            Map<String, Long> c = group.node(i).replica().counters();
            assertTrue(c.get("PBFT channel frames sent") > 0, "replica " + i + ": " + c);
            assertTrue(c.keySet().stream().noneMatch(k -> k.startsWith("PBFT channel refused")), c.toString());
            HttpAdmissionCounters h = http(i);
            // the client's 12 requests to each node came over fewer connections than requests: kept alive
            long made = h.tlsHandshakes.get() - nodeBefore[i];
            assertTrue(made < calls, "node " + i + " made " + made + " handshakes for " + calls + " calls: " + seen
                    + "client: " + handshakes);
        }
        assertTrue(handshakes < calls, "the client made " + handshakes + " handshakes for " + (4 * calls)
                + " requests: " + seen);
        Map<String, Long> status = new org.bftws.axis2.monitoring.NodeMonitor("replica0", group.node(0),
                new org.bftws.security.RefusalCounter(), http(0), null).getConnectionCounters();
        assertTrue(status.containsKey("connections refused: TLS handshake failed"), status.toString());
        String page = org.bftws.axis2.monitoring.StatusWorker.status(group.context(0));
        assertTrue(page.contains("\"tlsCounters\":{\"handshakes\":") && page.contains("\"party certificate\":\""),
                page);
        assertEquals(0, tlsOf(client).refusals());
    }

    /** Waits until every replica executed the {@code count}th append and holds no exchange: each has answered it. */
    private static void awaitEveryReplicaAnswered(int count) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            boolean all = true;
            StringBuilder seen = new StringBuilder();
            for (int i = 0; i < 4; i++) {
                String state = group.state(i);
                int held = group.node(i).destination().heldExchanges();
                all &= state.endsWith("/" + count) && held == 0;
                seen.append(state).append(" held ").append(held).append("; ");
            }
            if (all) {
                return;
            }
            if (System.nanoTime() > end) {
                throw new AssertionError("not within 60 s: every replica answered append " + count + ": " + seen);
            }
            Thread.sleep(20);
        }
    }

    @Test
    void aClientPresentingACertificateOfAnotherCaIsRefusedAndCounted() throws Exception {
        // another deployment with the same parties: its CA signed another "client1"
        Path other = Files.createDirectories(dir.resolve("other"));
        Path xml = Files.writeString(other.resolve("replicas.xml"), Files.readString(group.replicasXml()));
        new KeyGenerator(ReplicasConfigReader.read(xml, KeyFileCheck.none()), false).run();
        PartyKeystore stranger = PartyKeystore.load(other.resolve("keys").resolve("client1.p12"), "client1", PASSWORD);
        X509Certificate ca = DeploymentTrust.load(group.replicasXml().resolveSibling("keys").resolve("truststore.p12"),
                PASSWORD).ca().orElseThrow();
        // it trusts this deployment's CA, so it is the replica that must refuse it
        DeploymentTls tls = DeploymentTls.of(TlsConfig.defaults(), stranger, ca);
        DeploymentTls node = SecurityRuntime.of(group.context(2)).tls().orElseThrow();
        long refusals = node.refusals();
        long failed = http(2).tlsFailed.get();
        String answer = post(tls, group.nodes[2].port());
        assertNull(answer, "the replica answered a client of another CA: " + answer);
        await(() -> node.refusals() > refusals && http(2).tlsFailed.get() > failed,
                "replica2 counts the refused certificate");
        appendAndCheck(client, 2);
    }

    @Test
    void aClientPresentingAnExpiredCertificateOfTheDeploymentCaIsRefusedAndCounted() throws Exception {
        Path keys = group.replicasXml().resolveSibling("keys");
        java.security.KeyStore caStore = java.security.KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keys.resolve("ca.p12"))) {
            caStore.load(in, PASSWORD);
        }
        java.security.PrivateKey caKey = (java.security.PrivateKey) caStore.getKey("ca", PASSWORD);
        X509Certificate ca = (X509Certificate) caStore.getCertificate("ca");
        // the deployment CA issued it, for a month that ended yesterday
        java.security.KeyPairGenerator g = java.security.KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        java.security.KeyPair pair = g.generateKeyPair();
        java.time.Instant now = java.time.Instant.now();
        X509Certificate expired = new org.bouncycastle.cert.jcajce.JcaX509CertificateConverter().getCertificate(
                new org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder(ca.getSubjectX500Principal(),
                        java.math.BigInteger.valueOf(now.toEpochMilli()),
                        java.util.Date.from(now.minus(java.time.Duration.ofDays(31))),
                        java.util.Date.from(now.minus(java.time.Duration.ofDays(1))),
                        new javax.security.auth.x500.X500Principal("CN=expired-client,O=BFT-WS"), pair.getPublic())
                        .build(new org.bouncycastle.operator.jcajce.JcaContentSignerBuilder("SHA256withRSA")
                                .build(caKey)));
        java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("expired-client", pair.getPrivate(), PASSWORD, new X509Certificate[] {expired, ca});
        Path file = dir.resolve("expired-client.p12");
        try (java.io.OutputStream out = Files.newOutputStream(file)) {
            store.store(out, PASSWORD);
        }
        DeploymentTls tls = DeploymentTls.of(TlsConfig.defaults(),
                PartyKeystore.load(file, "expired-client", PASSWORD), ca);
        DeploymentTls node = SecurityRuntime.of(group.context(3)).tls().orElseThrow();
        long refusals = node.refusals();
        long failed = http(3).tlsFailed.get();
        assertNull(post(tls, group.nodes[3].port()), "replica3 answered a client with an expired certificate");
        // replica3's log: "TLS: replica3 refused a client (...): the certificate of CN=expired-client,O=BFT-WS
        // expired on ..." (the reason's wording: ReplicaChannelTlsTest)
        await(() -> node.refusals() > refusals && http(3).tlsFailed.get() > failed,
                "replica3 counts the expired certificate");
        appendAndCheck(client, 1);
    }

    /** The first line of the answer to a POST over TLS as {@code tls}'s party, or null when the connection failed. */
    private static String post(DeploymentTls tls, int port) {
        try (Socket plain = new Socket(InetAddress.getLoopbackAddress(), port)) {
            plain.setSoTimeout(10_000);
            SSLSocket s = tls.secure(plain, true);
            s.getOutputStream().write(("POST /axis2/services/EchoService HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Length: 0\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            String line = firstLine(s.getInputStream());
            return line.isEmpty() ? null : line;
        } catch (IOException e) {
            return null;
        }
    }

    private static String firstLine(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
            b.append((char) c);
        }
        return b.toString().trim();
    }

    @Test
    void theStatusPageIsServedOverTheSameTlsToTheReadersTheSettingNamesOnly() throws Exception {
        Path keys = group.replicasXml().resolveSibling("keys");
        X509Certificate ca = DeploymentTrust.load(keys.resolve("truststore.p12"), PASSWORD).ca().orElseThrow();
        DeploymentTls client1 = DeploymentTls.of(TlsConfig.defaults(),
                PartyKeystore.load(keys.resolve("client1.p12"), "client1", PASSWORD), ca);
        DeploymentTls replica2 = DeploymentTls.of(TlsConfig.defaults(),
                PartyKeystore.load(keys.resolve("replica2.p12"), "replica2", PASSWORD), ca);
        assertEquals("HTTP/1.1 200 OK", get(client1, group.nodes[1].port(), "/bftws/status"));
        assertTrue(get(replica2, group.nodes[1].port(), "/bftws/status").startsWith("HTTP/1.1 403"),
                "replica2 is no status reader");
    }

    /** The status line of the answer to a GET over TLS as {@code tls}'s party, or null when the connection failed. */
    private static String get(DeploymentTls tls, int port, String path) {
        try (Socket plain = new Socket(InetAddress.getLoopbackAddress(), port)) {
            plain.setSoTimeout(10_000);
            SSLSocket s = tls.secure(plain, true);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            String line = firstLine(s.getInputStream());
            return line.isEmpty() ? null : line;
        } catch (IOException e) {
            return null;
        }
    }

    @Test
    void aPlaintextRequestToTheHttpsPortIsRefusedAndCountedAndTlsClientsAreStillServed() throws Exception {
        long failed = http(1).tlsFailed.get();
        String answer;
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), group.nodes[1].port())) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write(("POST /axis2/services/EchoService HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: text/xml\r\nContent-Length: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            answer = firstLine(s.getInputStream());
        }
        assertTrue(!answer.startsWith("HTTP/"), "a plaintext request got an HTTP answer: " + answer);
        await(() -> http(1).tlsFailed.get() == failed + 1, "replica1 counts the plaintext connection");
        appendAndCheck(client, 2);
        assertTrue(group.node(1).replica().counters().keySet().stream()
                .noneMatch(k -> k.startsWith("PBFT channel refused")), "nothing else was harmed");
    }

    @Test
    void aServerThatIsNotTheNodeAtItsAddressIsRefusedByTheClient() throws Exception {
        // a client whose replicas.xml swaps replica0's and replica1's addresses: each answers with its own certificate
        String p0 = "127.0.0.1:" + group.nodes[0].port() + "/";
        String p1 = "127.0.0.1:" + group.nodes[1].port() + "/";
        Path swapped = group.replicasXml().resolveSibling("replicas-swapped.xml");
        Files.writeString(swapped, Files.readString(group.replicasXml()).replace(p0, "SWAP").replace(p1, p0)
                .replace("SWAP", p1));
        ServiceClient misled = group.client(swapped, null);
        // replica2 and replica3 are still where the client expects them: f + 1 matching replies decide the call
        appendAndCheck(misled, 1);
        assertTrue(tlsOf(misled).refusals() >= 1, "the client refused replica1 at replica0's address and vice versa");
    }

    @Test
    void theSoapReplicaChannelRunsOverHttps() throws Exception {
        try (BftTestGroup soap = BftTestGroup.startTls(Files.createDirectories(dir.resolve("soap")), "mac", BftTestGroup.protocol(4, "2s"),
                ReplicaChannelKind.SOAP)) {
            ServiceClient c = soap.client();
            for (int i = 1; i <= 6; i++) {
                assertEquals(Integer.toString(i),
                        BftTestGroup.child(BftTestGroup.call(c, BftTestGroup.append("s" + i)), "count"));
            }
            for (int i = 0; i < 4; i++) {
                Map<String, Long> counters = soap.node(i).replica().counters();
                assertTrue(counters.get("PBFT bundles sent") > 0, "replica " + i + ": " + counters);
                DeploymentTls tls = SecurityRuntime.of(soap.context(i)).tls().orElseThrow();
                // the node's own HTTPS handshakes (its server's and its client role's to its peers)
                assertTrue(tls.handshakes() > 0, "replica " + i + " made no TLS handshake");
                assertEquals(0, tls.refusals(), "replica " + i);
                assertEquals(0, HttpAdmissionCounters.of(soap.context(i)).tlsFailed.get(), "replica " + i);
            }
        }
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
