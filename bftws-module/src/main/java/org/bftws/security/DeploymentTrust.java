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
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

/**
 * The deployment's truststore: the CA, the certificate registered for each node and client name, and each node's
 * proof key certificate. A verifier pins the signer's certificate to the one registered for its CN: with the party
 * certificates in the truststore, PKIX path validation alone would also accept a certificate that a compromised party
 * issued itself.
 *
 * <p>Proof keys ({@link ProofKeys}, the Ed25519 keys of the embedded PBFT signatures) are pinned the same way: the
 * key registered for a node name under {@code proof:NAME} is the only one that node's proofs verify with. Each such
 * certificate is checked once, when the truststore is loaded: issued by the deployment CA, for that very node name,
 * for digital signatures only, with an Ed25519 key; a store holding one that is not is refused as a whole, since it
 * was tampered with or mixed from two deployments. They are kept apart from the WS-Security certificates:
 * {@link #registered} never returns one, and the store WSS4J gets ({@link #keyStore()}) does not hold them.
 */
public final class DeploymentTrust {
    private final KeyStore wsSecurity;
    private final Map<String, X509Certificate> byName = new HashMap<>();
    private final Map<String, Ed25519PublicKeyParameters> proofKeys = new HashMap<>();
    private final X509Certificate ca;

    /** IllegalStateException when a proof key certificate in {@code store} fails its check. */
    public DeploymentTrust(KeyStore store) {
        this.wsSecurity = Pkcs12.empty(); // in memory only: never written, so no key derivation is paid for it
        try {
            ca = store.getCertificate(DeploymentCa.ALIAS) instanceof X509Certificate x ? x : null;
            for (String alias : Collections.list(store.aliases())) {
                Certificate c = store.getCertificate(alias);
                if (!(c instanceof X509Certificate x)) {
                    continue;
                }
                Optional<String> node = ProofKeys.party(alias);
                if (node.isPresent()) {
                    proofKeys.put(node.get(), checkedProofKey(ca, x, node.get()));
                    continue;
                }
                wsSecurity.setCertificateEntry(alias, x);
                if (!alias.equals(DeploymentCa.ALIAS)) {
                    byName.put(alias.toLowerCase(Locale.ROOT), x);
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the truststore", e);
        }
    }

    private static Ed25519PublicKeyParameters checkedProofKey(X509Certificate ca, X509Certificate cert, String node) {
        String problem = ca == null ? "cannot be checked: the truststore has no CA certificate under alias '"
                + DeploymentCa.ALIAS + "'" : DeploymentCa.proofCertificateProblem(ca, cert, node).orElse(null);
        if (problem != null) {
            throw new IllegalStateException("the truststore's proof key certificate for " + node + " " + problem
                    + "; run ./bftws keygen --force to recreate the deployment's keys");
        }
        return ProofKeys.verifyingKey(cert.getPublicKey());
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

    /** The deployment CA's certificate, if the truststore holds it: what every party's certificate is issued by. */
    public Optional<X509Certificate> ca() {
        return Optional.ofNullable(ca);
    }

    /** The certificate registered for party {@code name} (its WS-Security certificate), if the deployment knows it. */
    public Optional<X509Certificate> registered(String name) {
        return Optional.ofNullable(byName.get(name.toLowerCase(Locale.ROOT)));
    }

    /**
     * The proof key registered for node {@code name}: the only key its embedded PBFT signatures verify with. Empty
     * when the truststore has none for it (written by keygen before proof keys existed: run it again).
     */
    public Optional<Ed25519PublicKeyParameters> proofKey(String name) {
        return Optional.ofNullable(proofKeys.get(name.toLowerCase(Locale.ROOT)));
    }

    /** The CA and the parties' WS-Security certificates, for WSS4J's path validation: no proof key certificate. */
    KeyStore keyStore() {
        return wsSecurity;
    }
}
