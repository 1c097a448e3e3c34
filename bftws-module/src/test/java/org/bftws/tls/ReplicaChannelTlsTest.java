package org.bftws.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.crypto.SecretKey;

import org.bftws.channels.tcp.ChannelKeys;
import org.bftws.channels.tcp.FrameTransport;
import org.bftws.channels.tcp.Refusal;
import org.bftws.channels.tcp.TransportSettings;
import org.bftws.config.ReplicasConfig;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.config.TlsConfig;
import org.bftws.security.DeploymentTrust;
import org.bftws.security.KeyGenerator;
import org.bftws.security.PartyKeystore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binary replica channel over TLS, on real sockets on 127.0.0.1 with keygen's certificates: frames flow when both
 * ends present their own certificate; a node presenting another party's certificate, one from another CA, an expired
 * one, one the CA's revocation list names, and a peer speaking plain TCP to the TLS port are each refused, counted
 * with their reason, and no other connection is touched.
 */
class ReplicaChannelTlsTest {
    private static final byte[] GROUP = "EchoService".getBytes(StandardCharsets.UTF_8);
    private static final char[] PASSWORD = "pw".toCharArray();

    /** keygen's deployment, and another one with a CA of its own: made once, RSA keys take seconds. */
    private static Path one;
    private static Path other;

    private static Path dir;

    @BeforeAll
    static void keys(@TempDir Path tmp) throws IOException {
        dir = tmp;
        one = deployment(dir, "one");
        other = deployment(dir, "other");
    }

    private final List<FrameTransport> started = new ArrayList<>();
    private final Map<Integer, InetSocketAddress> addresses = new TreeMap<>();
    private final Map<Integer, String> names = Map.of(0, "replica0", 1, "replica1", 2, "replica2", 3, "replica3");

    @AfterEach
    void stop() {
        started.forEach(FrameTransport::stop);
    }

    /** keygen's keys for a 4-replica group (ports unused: the test's transports listen on free ports). */
    private static Path deployment(Path dir, String name) throws IOException {
        Path d = Files.createDirectories(dir.resolve(name));
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\n<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>\n<tls/>\n"
                + "<group service=\"EchoService\" endpoint=\"http://echo.bftws.group/axis2/services/EchoService\" "
                + "f=\"1\">\n<security profile=\"mac\"/>\n");
        for (int i = 0; i < 4; i++) {
            b.append("<node id=\"").append(i).append("\" name=\"replica").append(i)
                    .append("\" serviceEndpoint=\"https://127.0.0.1:").append(9100 + i)
                    .append("/axis2/services/EchoService\" controlEndpoint=\"https://127.0.0.1:").append(9100 + i)
                    .append("/axis2/services/BftControl\" channelEndpoint=\"tcp://127.0.0.1:").append(10100 + i)
                    .append("\"/>\n");
        }
        b.append("</group>\n</replicas>\n");
        Path file = d.resolve("replicas.xml");
        Files.writeString(file, b);
        ReplicasConfig config = ReplicasConfigReader.read(file, org.bftws.config.KeyFileCheck.none());
        new KeyGenerator(config, false).run();
        return d;
    }

    private static PartyKeystore party(Path deployment, String name) {
        return PartyKeystore.load(deployment.resolve("keys").resolve(name + ".p12"), name, PASSWORD);
    }

    private static X509Certificate ca(Path deployment) {
        return DeploymentTrust.load(deployment.resolve("keys").resolve("truststore.p12"), PASSWORD).ca().orElseThrow();
    }

    /**
     * Node {@code self} of the deployment in {@code keysOf}, pair keys from {@code self}'s own keystore, presenting
     * the certificate of {@code presents} (normally itself) and judging validity at {@code clock}.
     */
    private FrameTransport start(int self, Path keysOf, String presents, Path caOf, Clock clock,
                                 BlockingQueue<String> inbox) throws IOException {
        return start(self, keysOf, DeploymentTls.at(TlsConfig.defaults(),
                party(keysOf == caOf ? keysOf : caOf, presents), ca(caOf), clock), inbox);
    }

    /** Node {@code self} of the deployment in {@code keysOf}, pair keys from its own keystore, speaking {@code tls}. */
    private FrameTransport start(int self, Path keysOf, DeploymentTls tls, BlockingQueue<String> inbox)
            throws IOException {
        PartyKeystore own = party(keysOf, "replica" + self);
        Map<Integer, SecretKey> pairKeys = new TreeMap<>();
        for (int peer : addresses.keySet()) {
            if (peer != self) {
                pairKeys.put(peer, own.macKeyWith("replica" + peer).orElseThrow());
            }
        }
        FrameTransport t = new FrameTransport(self, addresses, addresses.get(self), GROUP, ChannelKeys.of(pairKeys),
                new ReplicaChannelTls(tls, names), (peer, payload) -> inbox.add(peer + ":"
                + new String(payload, StandardCharsets.UTF_8)), TransportSettings.defaults(1 << 20, 2));
        t.start();
        started.add(t);
        return t;
    }

    private FrameTransport start(int self, Path deployment, BlockingQueue<String> inbox) throws IOException {
        return start(self, deployment, "replica" + self, deployment, Clock.systemUTC(), inbox);
    }

    private void addresses(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            addresses.put(i, new InetSocketAddress(InetAddress.getLoopbackAddress(), org.bftws.axis2.standalone.NodeServer.freePort()));
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

    @Test
    void framesFlowBetweenNodesThatEachPresentTheirOwnDeploymentCertificate() throws Exception {
        addresses(2);
        Path d = one;
        BlockingQueue<String> in0 = new LinkedBlockingQueue<>();
        BlockingQueue<String> in1 = new LinkedBlockingQueue<>();
        FrameTransport a = start(0, d, in0);
        FrameTransport b = start(1, d, in1);
        for (int i = 0; i < 50; i++) {
            a.send(1, ("to-b-" + i).getBytes(StandardCharsets.UTF_8));
            b.send(0, ("to-a-" + i).getBytes(StandardCharsets.UTF_8));
        }
        for (int i = 0; i < 50; i++) {
            assertEquals("0:to-b-" + i, in1.poll(10, TimeUnit.SECONDS));
            assertEquals("1:to-a-" + i, in0.poll(10, TimeUnit.SECONDS));
        }
        assertEquals(1L, a.counters().snapshot().get("connections"));
        assertTrue(a.counters().snapshot().keySet().stream().noneMatch(k -> k.startsWith("refused")),
                a.counters().snapshot().toString());
    }

    @Test
    void aNodePresentingAnotherPartysCertificateIsRefusedAndCounted() throws Exception {
        addresses(2);
        Path d = one;
        FrameTransport honest = start(0, d, new LinkedBlockingQueue<>());
        // node 1 dials from its own address with its own pair keys, but presents replica2's certificate
        FrameTransport impostor = start(1, d, "replica2", d, Clock.systemUTC(), new LinkedBlockingQueue<>());
        await(() -> honest.counters().refusals(Refusal.WRONG_CERTIFICATE) > 0
                        || impostor.counters().refusals(Refusal.WRONG_CERTIFICATE) > 0,
                "the connection between node 0 and a node 1 presenting replica2's certificate is refused");
        assertEquals(0L, honest.counters().snapshot().getOrDefault("connections", 0L));
    }

    @Test
    void aCertificateFromAnotherCaIsRefusedWithItsReason() throws Exception {
        addresses(2);
        Path d = one;
        FrameTransport honest = start(0, d, new LinkedBlockingQueue<>());
        FrameTransport stranger = start(1, d, "replica1", other, Clock.systemUTC(), new LinkedBlockingQueue<>());
        await(() -> honest.counters().refusals(Refusal.TLS_FAILED) > 0, "node 0 refuses a certificate of another CA");
        assertEquals(0L, honest.counters().snapshot().getOrDefault("connections", 0L));
        assertTrue(stranger.counters().refusals(Refusal.TLS_FAILED) + honest.counters().refusals(Refusal.TLS_FAILED) > 0);
    }

    @Test
    void anExpiredCertificateIsRefusedWithAOneLineReason() throws Exception {
        addresses(2);
        Path d = one;
        // node 0 judges validity 900 days from now: every certificate keygen issued (825 days) expired by then
        Clock later = Clock.fixed(Instant.now().plus(Duration.ofDays(900)), ZoneOffset.UTC);
        DeploymentTls judge = DeploymentTls.at(TlsConfig.defaults(), party(d, "replica0"), ca(d), later);
        String reason = judge.problem(new X509Certificate[] {party(d, "replica1").certificate()});
        assertNotNull(reason);
        assertTrue(reason.startsWith("the certificate of CN=replica1") && reason.contains("expired on")
                && !reason.contains("\n"), reason);
        FrameTransport strict = start(0, d, "replica0", d, later, new LinkedBlockingQueue<>());
        start(1, d, new LinkedBlockingQueue<>());
        await(() -> strict.counters().refusals(Refusal.TLS_FAILED) > 0, "node 0 refuses node 1's expired certificate");
        assertEquals(0L, strict.counters().snapshot().getOrDefault("connections", 0L));
    }

    @Test
    void aPartyWhoseCertificateIsOnTheCasRevocationListIsRefusedAtTheChannelAndCounted() throws Exception {
        addresses(1);
        Path d = one;
        org.bftws.security.DeploymentCa ca = org.bftws.security.DeploymentCa.load(d.resolve("keys").resolve("ca.p12"),
                PASSWORD, new java.security.SecureRandom());
        Path crl = dir.resolve("revoked.crl");
        Files.write(crl, ca.revocationList(List.of(party(d, "replica1").certificate()), null, Duration.ofDays(1))
                .getEncoded());
        TlsConfig withCrl = new TlsConfig(List.of("TLSv1.3"), List.of(), true, crl);
        DeploymentTls judge = DeploymentTls.at(withCrl, party(d, "replica0"), ca(d), Clock.systemUTC());
        String reason = judge.problem(new X509Certificate[] {party(d, "replica1").certificate()});
        assertTrue(reason != null && reason.startsWith("the certificate of CN=replica1") && reason.contains("revoked"),
                String.valueOf(reason));
        // node 0's channel endpoint, judging certificates against the list
        FrameTransport node0 = start(0, d, judge, new LinkedBlockingQueue<>());

        // a party the list does not name completes its TLS handshake with that endpoint: it is up and trusts it
        long handshakes = judge.handshakes();
        try (Socket plain = new Socket()) {
            plain.connect(addresses.get(0));
            plain.setSoTimeout(30_000);
            tlsOf(d, "replica2").secure(plain, true);
            await(() -> judge.handshakes() == handshakes + 1, "node 0 completes replica2's TLS handshake");
        }
        assertEquals(0, judge.refusals(), "replica2 is not refused");
        assertEquals(0, node0.counters().refusals(Refusal.TLS_FAILED));

        // replica1, revoked, dials the same endpoint with its own certificate: node 0 ends the handshake with a
        // fatal alert and closes the connection; the client reads the alert (TLS 1.3: its side of the handshake may
        // have ended already, then the first read gets it), or, when node 0 closed with the rest of the client's
        // flight unread, a reset
        try (Socket plain = new Socket()) {
            plain.connect(addresses.get(0));
            plain.setSoTimeout(30_000);
            IOException ended = null;
            int read = 0;
            try {
                read = tlsOf(d, "replica1").secure(plain, true).getInputStream().read();
            } catch (IOException e) {
                ended = e;
            }
            assertNotNull(ended, "node 0 kept the connection of the revoked replica1 (read " + read + ")");
            assertTrue(ended instanceof javax.net.ssl.SSLException && ended.getMessage().contains("certificate_unknown")
                    || ended instanceof java.net.SocketException && !(ended instanceof java.net.ConnectException),
                    "the handshake ends with node 0's alert or its reset: " + ended);
        }
        await(() -> node0.counters().refusals(Refusal.TLS_FAILED) == 1, "node 0 counts the refused certificate");
        assertEquals(1, judge.refusals(), "refused once, for its certificate");
        assertEquals(handshakes + 1, judge.handshakes(), "no handshake completed for replica1");
        assertEquals(0L, node0.counters().snapshot().getOrDefault("connections", 0L));
    }

    /** {@code party}'s own TLS in the deployment {@code d}, as a peer dialling a node presents it. */
    private static DeploymentTls tlsOf(Path d, String party) {
        return DeploymentTls.of(TlsConfig.defaults(), party(d, party), ca(d));
    }

    @Test
    void aPlaintextConnectionToTheTlsPortIsRefusedAndCountedAndTheOtherLinksGoOn() throws Exception {
        addresses(2);
        Path d = one;
        BlockingQueue<String> in1 = new LinkedBlockingQueue<>();
        FrameTransport a = start(0, d, new LinkedBlockingQueue<>());
        FrameTransport b = start(1, d, in1);
        a.send(1, "before".getBytes(StandardCharsets.UTF_8));
        assertEquals("0:before", in1.poll(10, TimeUnit.SECONDS));
        try (Socket plain = new Socket()) {
            plain.connect(addresses.get(1));
            OutputStream out = plain.getOutputStream();
            out.write("BFTWS-CH plain handshake, no TLS".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            await(() -> b.counters().refusals(Refusal.TLS_FAILED) > 0, "the plaintext connection is refused");
        }
        a.send(1, "after".getBytes(StandardCharsets.UTF_8));
        assertEquals("0:after", in1.poll(10, TimeUnit.SECONDS));
        assertEquals(1L, b.counters().snapshot().get("connections"), "the TLS link between the nodes stayed up");
    }
}
