package org.bftws.config;

import java.nio.file.Path;

/**
 * The deployment's key material as replicas.xml's {@code <keys>} names it: keygen writes there, nodes read there.
 *
 * @param truststore    PKCS#12 truststore: the deployment CA and the certificate of every node and client
 * @param storePassword password of the truststore, the CA's store and every node's and client's keystore
 */
public record KeysConfig(Path truststore, String storePassword) {

    /** The CA's own keystore (private key and certificate), kept next to the truststore so keygen can add parties. */
    public Path caKeystore() {
        return truststore.resolveSibling("ca.p12");
    }
}
