package org.bftws.interop.cxf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
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
 * so CXF's host name check is off. A CXF client without a certificate is refused.
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
        JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
        factory.setServiceClass(EchoPort.class);
        factory.setAddress(gateway.endpoint("EchoService"));
        EchoPort port = (EchoPort) factory.create();
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store(gateway.keys.resolve("truststore.p12")));
        TLSClientParameters tls = new TLSClientParameters();
        tls.setTrustManagers(tmf.getTrustManagers());
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
    void aCxfClientWithoutACertificateIsRefused() throws Exception {
        EchoPort port = port(null);
        assertThrows(WebServiceException.class, () -> port.append(new Append("anonymous")));
    }
}
