package org.bftws.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.config.TlsConfig;
import org.bftws.security.DeploymentTrust;
import org.bftws.security.KeyGenerator;
import org.bftws.security.PartyKeystore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An HTTPS server's side of the handshake ({@link DeploymentTls#accept}) on real sockets: with
 * {@code clientCertificates="required"} a client without a certificate is refused, with {@code none} it is served and
 * the party of a client that does present one is known; a handshake completed is counted.
 */
class ServerHandshakeTest {
    private static final char[] PASSWORD = "pw".toCharArray();
    private static Path keys;

    @BeforeAll
    static void keys(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("replicas.xml"), "<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>\n<tls/>\n"
                + "<group service=\"S\" endpoint=\"http://s.test/axis2/services/S\" f=\"0\" replicaChannel=\"soap\">\n"
                + "<security profile=\"mac\"/>\n<node id=\"0\" name=\"solo\" serviceEndpoint="
                + "\"https://127.0.0.1:9/axis2/services/S\" controlEndpoint=\"https://127.0.0.1:9/axis2/services/BftControl\"/>\n"
                + "</group>\n<client name=\"client1\"/>\n</replicas>\n");
        new KeyGenerator(ReplicasConfigReader.read(file, KeyFileCheck.none()), false).run();
        keys = dir.resolve("keys");
    }

    private static DeploymentTls party(String name, TlsConfig config) {
        X509Certificate ca = DeploymentTrust.load(keys.resolve("truststore.p12"), PASSWORD).ca().orElseThrow();
        return DeploymentTls.of(config, PartyKeystore.load(keys.resolve(name + ".p12"), name, PASSWORD), ca);
    }

    /** A client without a certificate of its own that trusts any server (the server's side is under test). */
    private static SSLContext anonymous() throws Exception {
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(null, new TrustManager[] {new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) { }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) { }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
        return c;
    }

    /** The party the server saw after a handshake with a client on {@code client}'s context, and one byte echoed. */
    private static String handshake(DeploymentTls server, SSLContext client) throws Exception {
        return handshake(server, client, session -> String.valueOf(DeploymentTls.peerName(session)));
    }

    /** What {@code seen} reads from the server's session after a handshake with a client on {@code client}. */
    private static String handshake(DeploymentTls server, SSLContext client,
                                    java.util.function.Function<javax.net.ssl.SSLSession, String> seen)
            throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<String> result = CompletableFuture.supplyAsync(() -> {
                try (Socket plain = listener.accept()) {
                    SSLSocket s = server.accept(plain, 5_000);
                    int b = s.getInputStream().read();
                    s.getOutputStream().write(b);
                    s.getOutputStream().flush();
                    return seen.apply(s.getSession());
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            try (SSLSocket s = (SSLSocket) client.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(),
                    listener.getLocalPort())) {
                s.setSoTimeout(5_000);
                s.setEnabledProtocols(new String[] {"TLSv1.3"});
                s.getOutputStream().write(7);
                s.getOutputStream().flush();
                if (s.getInputStream().read() != 7) {
                    throw new IOException("no echo");
                }
            } catch (IOException e) {
                // the server's verdict is what the test reads
            }
            return result.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void withoutConfiguredSuitesThePartiesAgreeOnAes128Gcm() throws Exception {
        DeploymentTls server = party("solo", TlsConfig.defaults());
        assertEquals("TLS_AES_128_GCM_SHA256", handshake(server, party("client1", TlsConfig.defaults()).context(),
                javax.net.ssl.SSLSession::getCipherSuite));
        assertEquals(List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"),
                List.of(DeploymentTls.aes128First(new String[] {"TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256",
                        "TLS_CHACHA20_POLY1305_SHA256"})));
    }

    @Test
    void withClientCertificatesRequiredAClientWithoutOneIsRefused() throws Exception {
        DeploymentTls server = party("solo", TlsConfig.defaults());
        assertThrows(java.util.concurrent.ExecutionException.class, () -> handshake(server, anonymous()));
        assertEquals(0, server.handshakes());
        assertEquals("client1", handshake(server, party("client1", TlsConfig.defaults()).context()));
        assertEquals(1, server.handshakes());
    }

    @Test
    void withClientCertificatesNoneAClientWithoutOneIsServedAndOneWithOneIsKnown() throws Exception {
        DeploymentTls server = party("solo", new TlsConfig(List.of("TLSv1.3"), List.of(), false, null));
        assertEquals("null", handshake(server, anonymous()));
        assertEquals("client1", handshake(server, party("client1", TlsConfig.defaults()).context()));
        assertEquals(2, server.handshakes());
    }
}
