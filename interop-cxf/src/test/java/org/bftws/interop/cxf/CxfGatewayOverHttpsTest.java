package org.bftws.interop.cxf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import javax.xml.ws.WebServiceException;

import org.apache.cxf.configuration.jsse.TLSClientParameters;
import org.apache.cxf.frontend.ClientProxy;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.apache.cxf.transport.http.HTTPConduit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An unmodified Apache CXF JAX-WS client calls the bftws voting gateway over HTTPS: the deployment has
 * {@code <tls/>} (replicas over HTTPS, the gateway's group side as client1 over HTTPS), and the gateway, started with
 * {@code --caller-ca} the deployment CA, requires its callers' certificates. CXF trusts the deployment CA (keygen's
 * truststore.p12) and presents a certificate that CA issued; the gateway's certificate names its party, not its host,
 * so CXF's host name check is off. A CXF client without a certificate is refused by the gateway's TLS, while one
 * with a certificate is served by the same gateway.
 */
class CxfGatewayOverHttpsTest {
    private static final char[] PASSWORD = "pw".toCharArray();

    @TempDir
    static Path dir;

    private static ForkedGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        gateway = new ForkedGateway(dir, true);
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private static KeyStore store(Path file) throws Exception {
        KeyStore k = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            k.load(in, PASSWORD);
        }
        return k;
    }

    /** A CXF port to the gateway over HTTPS, presenting {@code keystore}'s certificate unless it is null. */
    private static EchoPort port(Path keystore) throws Exception {
        return port(keystore, new ArrayList<>());
    }

    /** ... noting in {@code servers} the subject of each server certificate CXF checks (its TLS reached a server). */
    private static EchoPort port(Path keystore, List<String> servers) throws Exception {
        JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
        factory.setServiceClass(EchoPort.class);
        factory.setAddress(gateway.endpoint("EchoService"));
        EchoPort port = (EchoPort) factory.create();
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store(gateway.keys.resolve("truststore.p12")));
        X509TrustManager trust = (X509TrustManager) tmf.getTrustManagers()[0];
        TLSClientParameters tls = new TLSClientParameters();
        tls.setTrustManagers(new TrustManager[] {new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                trust.checkClientTrusted(chain, authType);
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                servers.add(chain[0].getSubjectX500Principal().getName());
                trust.checkServerTrusted(chain, authType);
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return trust.getAcceptedIssuers();
            }
        }});
        tls.setDisableCNCheck(true);
        tls.setSecureSocketProtocol("TLSv1.3");
        if (keystore != null) {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store(keystore), PASSWORD);
            tls.setKeyManagers(kmf.getKeyManagers());
        }
        ((HTTPConduit) ClientProxy.getClient(port).getConduit()).setTlsClientParameters(tls);
        return port;
    }

    @Test
    void aCxfClientWithACertificateOfTheNamedCaCallsTheGatewayOverHttps() throws Exception {
        assertTrue(gateway.endpoint("EchoService").startsWith("https://"));
        EchoPort port = port(gateway.keys.resolve("client1.p12"));
        for (int i = 0; i < 3; i++) {
            AppendResponse r = port.append(new Append("tls-" + i));
            assertEquals(64, r.digest.length(), r.digest);
            assertFalse(r.digest.startsWith("WRONG"), "a wrong reply reached the caller: " + r.digest);
        }
        ((java.io.Closeable) port).close();
    }

    @Test
    void aCxfClientWithoutACertificateIsRefusedByTheGatewaysTls() throws Exception {
        // the positive control, on the same gateway and with the same trust: a client presenting client1's
        // certificate is served
        List<String> served = new ArrayList<>();
        EchoPort issued = port(gateway.keys.resolve("client1.p12"), served);
        assertEquals(64, issued.append(new Append("with-a-certificate")).digest.length());
        ((java.io.Closeable) issued).close();
        assertTrue(served.contains("CN=client1,O=BFT-WS"), "the gateway presents its party certificate: " + served);

        List<String> seen = new ArrayList<>();
        EchoPort anonymous = port(null, seen);
        WebServiceException refused = assertThrows(WebServiceException.class,
                () -> anonymous.append(new Append("anonymous")));
        // CXF's TLS reached the gateway (it checked the gateway's certificate), and the connection ended there: the
        // gateway requires a certificate, and the JDK's HTTPS server closes without an alert or an HTTP answer
        assertTrue(seen.contains("CN=client1,O=BFT-WS"), "the handshake reached the gateway: " + seen + "; " + refused);
        List<Throwable> causes = new ArrayList<>();
        for (Throwable t = refused; t != null && !causes.contains(t); t = t.getCause()) {
            causes.add(t);
        }
        assertTrue(causes.stream().noneMatch(t -> t instanceof java.net.ConnectException), causes.toString());
        assertTrue(causes.stream().anyMatch(t -> t instanceof javax.net.ssl.SSLException
                || t instanceof java.net.SocketException || t instanceof java.io.EOFException
                || t instanceof java.io.IOException && String.valueOf(t.getMessage()).contains("end of file")),
                "the connection ended after the handshake: " + causes);
    }
}
