package org.bftws.security;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The deployment's truststore: the CA, and the certificate registered for each node and client name. A verifier
 * pins the signer's certificate to the one registered for its CN: with the party certificates in the truststore,
 * PKIX path validation alone would also accept a certificate that a compromised party issued itself.
 */
public final class DeploymentTrust {
    private final KeyStore store;
    private final Map<String, X509Certificate> byName = new HashMap<>();

    public DeploymentTrust(KeyStore store) {
        this.store = store;
        try {
            for (String alias : Collections.list(store.aliases())) {
                Certificate c = store.getCertificate(alias);
                if (c instanceof X509Certificate x && !alias.equals(DeploymentCa.ALIAS)) {
                    byName.put(alias.toLowerCase(Locale.ROOT), x);
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the truststore", e);
        }
    }

    private static final LoadedOnce<DeploymentTrust> LOADED = new LoadedOnce<>();

    /** The truststore at {@code truststore}, read once per process and version of the file (see {@link LoadedOnce}). */
    public static DeploymentTrust load(Path truststore, char[] password) {
        return LOADED.get(truststore, password, () -> new DeploymentTrust(Pkcs12.load(truststore, password)));
    }

    /** How many times this process read a truststore file. */
    static int fileReads() {
        return LOADED.reads();
    }

    /** The certificate registered for party {@code name}, if the deployment knows it. */
    public Optional<X509Certificate> registered(String name) {
        return Optional.ofNullable(byName.get(name.toLowerCase(Locale.ROOT)));
    }

    KeyStore keyStore() {
        return store;
    }
}
