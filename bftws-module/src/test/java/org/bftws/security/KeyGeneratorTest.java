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
        assertEquals(new TreeSet<>(Set.of("ca", "replica0", "replica1", "replica2", "replica3", "client1")), aliases);
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
        new KeyGenerator(config(), false).run();
        assertArrayEquals(key, party("replica1").privateKey().getEncoded());
        assertArrayEquals(mac, party("replica1").macKeyWith("replica3").orElseThrow().getEncoded());
        new KeyGenerator(config(), true).run();
        assertNotEquals(new String(key), new String(party("replica1").privateKey().getEncoded()));
        assertFalse(java.util.Arrays.equals(mac, party("replica1").macKeyWith("replica3").orElseThrow().getEncoded()));
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
