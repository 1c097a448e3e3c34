package org.bftws.server;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import org.bftws.server.gateway.Gateway;

/**
 * For tests in other JVMs (interop-cxf's CXF client, whose libraries must not meet Axis2's on one classpath): an
 * {@link EchoGroup} with replica3 Byzantine and a gateway as client1 on 127.0.0.1 and a free port. Prints
 * {@code ready PORT}; stops on {@code stop} or the end of standard input.
 */
public final class EchoGatewayMain {

    private EchoGatewayMain() {
    }

    /** The deployment CA of {@code keys}, written as {@code keys/ca.pem}. */
    private static Path caPem(Path keys) throws java.io.IOException {
        java.security.cert.X509Certificate ca = org.bftws.security.DeploymentTrust.load(keys.resolve("truststore.p12"),
                "pw".toCharArray()).ca().orElseThrow();
        try {
            return java.nio.file.Files.writeString(keys.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\n"
                    + java.util.Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(ca.getEncoded())
                    + "\n-----END CERTIFICATE-----\n");
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new java.io.IOException(e);
        }
    }

    /**
     * {@code args[0]}: a directory for replicas.xml, keys and the replicas' repositories; {@code args[1]}, optional:
     * {@code tls}, for a deployment with {@code <tls/>} whose gateway serves callers over HTTPS and requires their
     * certificate from the deployment CA (written to {@code keys/ca.pem} for the test to read).
     */
    public static void main(String[] args) throws Exception {
        boolean tls = args.length > 1 && args[1].equals("tls");
        try (EchoGroup group = new EchoGroup(Path.of(args[0]), true, NodeContainer.SIMPLE, tls, "binary");
             Gateway gateway = Gateway.start(new InetSocketAddress("127.0.0.1", 0), group.replicasXml, "client1", 16,
                     Map.of(), EchoGroup.clientRepository(), tls ? caPem(group.replicasXml.resolveSibling("keys"))
                             : null)) {
            System.out.println("ready " + gateway.address().getPort());
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null && !line.trim().equals("stop"); line = in.readLine()) {
                if (line.trim().equals("wrong")) {
                    System.out.println("wrong " + group.wrong.rewritten.get());
                    System.out.flush();
                }
            }
        }
        System.exit(0);
    }
}
