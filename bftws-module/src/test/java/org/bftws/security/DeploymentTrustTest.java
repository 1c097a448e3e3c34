package org.bftws.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Collections;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfigReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The truststore pins each node's proof key as it pins its WS-Security certificate: only a certificate the deployment
 * CA issued for that very node's proof key counts, and it never stands in for the WS-Security certificate.
 */
class DeploymentTrustTest {
    @TempDir
    static Path dir;
    static final char[] PW = "pw".toCharArray();

    @BeforeAll
    static void keys() {
        new KeyGenerator(ReplicasConfigReader.read(TestDeployment.writeConfig(dir, "mac"), KeyFileCheck.none()), false)
                .run();
    }

    private static KeyStore truststore() {
        return Pkcs12.load(dir.resolve("keys/truststore.p12"), PW);
    }

    private static PartyKeystore party(String name) {
        return PartyKeystore.load(dir.resolve("keys/" + name + ".p12"), name, PW);
    }

    private static IllegalStateException refusedWith(String alias, X509Certificate cert) throws Exception {
        KeyStore store = truststore();
        store.setCertificateEntry(alias, cert);
        return assertThrows(IllegalStateException.class, () -> new DeploymentTrust(store));
    }

    @Test
    void aProofKeyCertificateTheCaDidNotIssueIsRefusedWhenTheTruststoreLoads() throws Exception {
        // replica3 certifies its own proof key as replica1's, naming the CA as issuer, and signs it with its RSA key
        X509Certificate ca = (X509Certificate) truststore().getCertificate(DeploymentCa.ALIAS);
        X509Certificate forged = ForgedCertificates.issueProof(party("replica3"), ca, "replica1",
                party("replica3").proofChain().get(0).getPublicKey());
        IllegalStateException e = refusedWith("proof:replica1", forged);
        assertTrue(e.getMessage().contains("proof key certificate for replica1 was not issued by the deployment CA"),
                e.getMessage());
        assertTrue(e.getMessage().contains("keygen"), e.getMessage());
    }

    @Test
    void aProofKeyCertificateRegisteredForAnotherNodeIsRefused() throws Exception {
        // genuine, CA-issued, but replica2's: under replica1's alias it would let replica2 sign as replica1
        IllegalStateException e = refusedWith("proof:replica1", party("replica2").proofChain().get(0));
        assertTrue(e.getMessage().contains("not of replica1's proof key"), e.getMessage());
    }

    @Test
    void aWsSecurityCertificateCannotServeAsAProofKey() throws Exception {
        IllegalStateException e = refusedWith("proof:replica1", party("replica1").certificate());
        assertTrue(e.getMessage().contains("not of replica1's proof key"), e.getMessage());
    }

    @Test
    void aProofKeyIsNeverTheRegisteredCertificateNorPartOfWhatWsSecurityTrusts() throws Exception {
        DeploymentTrust trust = new DeploymentTrust(truststore());
        for (int i = 0; i < 4; i++) {
            String node = "replica" + i;
            assertEquals(party(node).certificate(), trust.registered(node).orElseThrow());
            assertTrue(trust.proofKey(node).isPresent());
        }
        assertTrue(trust.registered("proof:replica1").isEmpty());
        for (String alias : Collections.list(trust.keyStore().aliases())) {
            assertFalse(alias.startsWith("proof:"), alias + " reaches WSS4J's trust store");
        }
        assertEquals(6, Collections.list(trust.keyStore().aliases()).size(), "the CA and the five parties");
    }
}
