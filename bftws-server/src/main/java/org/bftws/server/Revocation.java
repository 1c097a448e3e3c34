package org.bftws.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;

import org.bftws.config.KeysConfig;
import org.bftws.config.ReplicasConfig;
import org.bftws.security.DeploymentCa;
import org.bftws.security.DeploymentTrust;

/** {@code keygen --revoke NAME}: the deployment CA's revocation list, with NAME's certificate added. */
final class Revocation {
    /** How long a written list says it is current. */
    private static final Duration VALIDITY = Duration.ofDays(365);

    private Revocation() {
    }

    /** Adds {@code party}'s certificate to the list; returns the line keygen prints. */
    static String revoke(ReplicasConfig config, String party) {
        KeysConfig keys = config.keys();
        if (keys == null || keys.storePassword() == null) {
            throw new IllegalArgumentException("replicas.xml has no <keys truststore=... storePassword=...>: there "
                    + "is no deployment CA to revoke with");
        }
        char[] password = keys.storePassword().toCharArray();
        X509Certificate cert = DeploymentTrust.load(keys.truststore(), password).registered(party).orElseThrow(() ->
                new IllegalArgumentException("the truststore " + keys.truststore() + " holds no certificate of "
                        + party));
        Path file = config.tls() != null && config.tls().crl() != null ? config.tls().crl()
                : keys.truststore().resolveSibling("revoked.crl");
        DeploymentCa ca = DeploymentCa.load(keys.caKeystore(), password, new SecureRandom());
        X509CRL list = ca.revocationList(List.of(cert), Files.isRegularFile(file) ? read(file) : null, VALIDITY);
        try {
            Files.write(file, list.getEncoded());
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return "revoked the certificate of " + party + " (serial " + cert.getSerialNumber() + ") in " + file + " ("
                + list.getRevokedCertificates().size() + " revoked); "
                + (config.tls() != null && file.equals(config.tls().crl()) ? "restart the nodes to read it"
                : "set <tls crl=\"" + file.getFileName() + "\"> (relative to replicas.xml's directory: adjust) and "
                + "restart the nodes");
    }

    private static X509CRL read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return (X509CRL) CertificateFactory.getInstance("X.509").generateCRL(in);
        } catch (IOException | GeneralSecurityException | ClassCastException e) {
            throw new IllegalStateException(file + " is no revocation list: " + e.getMessage(), e);
        }
    }
}
