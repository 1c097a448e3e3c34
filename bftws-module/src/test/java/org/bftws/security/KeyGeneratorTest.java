package org.bftws.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfig;
import org.bftws.config.ReplicasConfigReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyGeneratorTest {
    @TempDir
    Path dir;
    private Path conf;
    private final char[] pw = "pw".toCharArray();

    @BeforeEach
    void writeConfig() {
        conf = TestDeployment.writeConfig(dir, "wssec");
    }

    private ReplicasConfig config() {
        return ReplicasConfigReader.read(conf, KeyFileCheck.none());
    }

    private PartyKeystore party(String name) {
        return PartyKeystore.load(dir.resolve("keys/" + name + ".p12"), name, pw);
    }

    @Test
    void everyPartyGetsAnRsa2048KeyWithACaIssuedCertificateNamedAfterIt() throws Exception {
        new KeyGenerator(config(), false).run();
        ReplicasConfigReader.read(conf); // the reader's key-file check is now satisfied
        DeploymentCa ca = DeploymentCa.load(dir.resolve("keys/ca.p12"), pw, new java.security.SecureRandom());
        for (String name : config().partyNames()) {
            PartyKeystore p = party(name);
            X509Certificate cert = p.certificate();
            assertEquals("CN=" + name + ",O=BFT-WS", cert.getSubjectX500Principal().getName());
            assertTrue(ca.issued(cert));
            assertEquals(2048, ((RSAPublicKey) cert.getPublicKey()).getModulus().bitLength());
            cert.checkValidity();
            // the private key matches the certificate
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initSign(p.privateKey());
            s.update(new byte[] {1, 2, 3});
            byte[] sig = s.sign();
            s.initVerify(cert);
            s.update(new byte[] {1, 2, 3});
            assertTrue(s.verify(sig));
        }
    }

    @Test
    void theTruststoreHoldsTheCaAndEveryCertificateButNoPrivateKey() throws Exception {
        new KeyGenerator(config(), false).run();
        KeyStore trust = Pkcs12.load(dir.resolve("keys/truststore.p12"), pw);
        Set<String> aliases = new TreeSet<>(Collections.list(trust.aliases()));
        assertEquals(new TreeSet<>(Set.of("ca", "replica0", "replica1", "replica2", "replica3", "client1",
                "proof:replica0", "proof:replica1", "proof:replica2", "proof:replica3")), aliases);
        for (String alias : aliases) {
            assertTrue(trust.isCertificateEntry(alias), alias);
        }
    }

    @Test
    void eachPartyHoldsOnlyTheMacKeysItSharesWithTheNodesAndBothEndsHoldTheSameKey() {
        new KeyGenerator(config(), false).run();
        assertEquals(Set.of("replica1", "replica2", "replica3", "client1"), party("replica0").macKeys().keySet());
        assertEquals(Set.of("replica0", "replica1", "replica2", "client1"), party("replica3").macKeys().keySet());
        assertEquals(Set.of("replica0", "replica1", "replica2", "replica3"), party("client1").macKeys().keySet(),
                "a client shares a key with every node (their replies), never with another client");
        assertArrayEquals(party("client1").macKeyWith("replica2").orElseThrow().getEncoded(),
                party("replica2").macKeyWith("client1").orElseThrow().getEncoded());
        byte[] ab = party("replica0").macKeyWith("replica2").orElseThrow().getEncoded();
        assertEquals(32, ab.length);
        assertArrayEquals(ab, party("replica2").macKeyWith("replica0").orElseThrow().getEncoded());
        assertFalse(java.util.Arrays.equals(ab, party("replica0").macKeyWith("replica1").orElseThrow().getEncoded()));
    }

    @Test
    void runningAgainKeepsEveryKeyAndForceReplacesThem() {
        new KeyGenerator(config(), false).run();
        byte[] key = party("replica1").privateKey().getEncoded();
        byte[] mac = party("replica1").macKeyWith("replica3").orElseThrow().getEncoded();
        byte[] proof = party("replica1").proofKey().orElseThrow().getEncoded();
        new KeyGenerator(config(), false).run();
        assertArrayEquals(key, party("replica1").privateKey().getEncoded());
        assertArrayEquals(mac, party("replica1").macKeyWith("replica3").orElseThrow().getEncoded());
        assertArrayEquals(proof, party("replica1").proofKey().orElseThrow().getEncoded());
        new KeyGenerator(config(), true).run();
        assertNotEquals(new String(key), new String(party("replica1").privateKey().getEncoded()));
        assertFalse(java.util.Arrays.equals(mac, party("replica1").macKeyWith("replica3").orElseThrow().getEncoded()));
        assertFalse(java.util.Arrays.equals(proof, party("replica1").proofKey().orElseThrow().getEncoded()));
    }

    @Test
    void everyNodeGetsAnEd25519ProofKeyWhoseCertificateTheCaIssuedForProofsOnly() throws Exception {
        new KeyGenerator(config(), false).run();
        DeploymentCa ca = DeploymentCa.load(dir.resolve("keys/ca.p12"), pw, new java.security.SecureRandom());
        DeploymentTrust trust = new DeploymentTrust(Pkcs12.load(dir.resolve("keys/truststore.p12"), pw));
        for (int i = 0; i < 4; i++) {
            PartyKeystore p = party("replica" + i);
            X509Certificate cert = p.proofChain().get(0);
            assertEquals("CN=replica" + i + ",OU=PBFT proof key,O=BFT-WS", cert.getSubjectX500Principal().getName());
            assertTrue(ca.issued(cert));
            assertEquals(ca.certificate(), p.proofChain().get(1));
            assertArrayEquals(new boolean[] {true, false, false, false, false, false, false, false, false},
                    cert.getKeyUsage(), "digitalSignature only: no certificate signing, no key agreement");
            assertEquals("EdDSA", cert.getPublicKey().getAlgorithm());
            // the private key is the certificate's, and the truststore registers that same key for the node
            byte[] registered = trust.proofKey("replica" + i).orElseThrow().getEncoded();
            assertArrayEquals(ProofKeys.verifyingKey(cert.getPublicKey()).getEncoded(), registered);
            assertArrayEquals(ProofKeys.signingKey(p.proofKey().orElseThrow()).generatePublicKey().getEncoded(),
                    registered);
            // and it never stands in for the node's WS-Security certificate
            assertEquals(p.certificate(), trust.registered("replica" + i).orElseThrow());
        }
        assertTrue(party("client1").proofKey().isEmpty(), "a client signs no PBFT message");
        assertTrue(trust.proofKey("client1").isEmpty());
    }

    @Test
    void keygenAddsProofKeysToStoresWrittenBeforeThemWithoutTouchingTheirOtherEntries() throws Exception {
        new KeyGenerator(config(), false).run();
        Path keys = dir.resolve("keys");
        OlderStores.removeProofKeys(keys, pw); // as keygen wrote them before proof keys existed
        assertTrue(party("replica2").proofKey().isEmpty());
        java.util.Map<String, java.util.Map<String, String>> before = new java.util.TreeMap<>();
        for (String store : java.util.List.of("replica0", "replica1", "replica2", "replica3", "client1", "truststore",
                "ca")) {
            before.put(store, OlderStores.entries(keys.resolve(store + ".p12"), pw));
        }
        java.util.List<String> report = new KeyGenerator(config(), false).run();
        assertTrue(report.contains("added a proof key to " + keys.resolve("replica2.p12")
                + " (replica2), kept its other keys"), report.toString());
        for (java.util.Map.Entry<String, java.util.Map<String, String>> store : before.entrySet()) {
            java.util.Map<String, String> after = OlderStores.entries(keys.resolve(store.getKey() + ".p12"), pw);
            after.keySet().removeIf(alias -> alias.startsWith("proof:"));
            assertEquals(store.getValue(), after, store.getKey() + ": every entry it had, unchanged");
        }
        DeploymentTrust trust = new DeploymentTrust(Pkcs12.load(keys.resolve("truststore.p12"), pw));
        for (int i = 0; i < 4; i++) {
            PartyKeystore p = party("replica" + i);
            assertArrayEquals(ProofKeys.signingKey(p.proofKey().orElseThrow()).generatePublicKey().getEncoded(),
                    trust.proofKey("replica" + i).orElseThrow().getEncoded());
        }
    }

    @Test
    void aKeptProofKeyWhoseCertificateTheCaDidNotIssueIsRefused() throws Exception {
        new KeyGenerator(config(), false).run();
        Path file = dir.resolve("keys/replica1.p12");
        PartyKeystore p = party("replica1");
        // replica3's key (a party, not the CA) certifies replica1's proof key
        X509Certificate forged = ForgedCertificates.issueProof(party("replica3"), p.proofChain().get(1), "replica1",
                p.proofChain().get(0).getPublicKey());
        p.withProofKey(p.proofKey().orElseThrow(), java.util.List.of(forged, p.proofChain().get(1))).save(file, pw);
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> new KeyGenerator(config(), false).run());
        assertTrue(e.getMessage().contains("replica1.p12: the proof key certificate was not issued by the deployment CA"),
                e.getMessage());
    }

    @Test
    void aLostNodeKeystoreIsRecreatedWithTheMacKeysItsPeersStillHold() throws Exception {
        new KeyGenerator(config(), false).run();
        byte[] mac = party("replica0").macKeyWith("replica2").orElseThrow().getEncoded();
        byte[] key0 = party("replica0").privateKey().getEncoded();
        Files.delete(dir.resolve("keys/replica2.p12"));
        new KeyGenerator(config(), false).run();
        assertArrayEquals(mac, party("replica2").macKeyWith("replica0").orElseThrow().getEncoded());
        assertArrayEquals(key0, party("replica0").privateKey().getEncoded());
        KeyStore trust = Pkcs12.load(dir.resolve("keys/truststore.p12"), pw);
        assertEquals(party("replica2").certificate(), trust.getCertificate("replica2"));
    }
}
