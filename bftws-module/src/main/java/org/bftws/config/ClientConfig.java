package org.bftws.config;

import java.nio.file.Path;

/**
 * A client known to the groups: its certificate is in the truststore, its private key in its own keystore.
 *
 * @param name     unique name, the key alias and the certificate's subject CN
 * @param keystore PKCS#12 file with the client's private key and certificate
 */
public record ClientConfig(String name, Path keystore) {
}
