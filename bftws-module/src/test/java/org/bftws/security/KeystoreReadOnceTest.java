package org.bftws.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfig;
import org.bftws.config.ReplicasConfigReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restarting node opens its PKCS#12 keystore once (each opening costs PBKDF2 derivations, seconds of CPU in a
 * cold JVM), however many of its components ask for its keys, and without weakening the store's password.
 */
class KeystoreReadOnceTest {
    @TempDir
    Path dir;
    private ReplicasConfig config;
    private final char[] pw = "pw".toCharArray();

    @BeforeEach
    void generateKeys() {
        Path conf = TestDeployment.writeConfig(dir, "wssec");
        config = ReplicasConfigReader.read(conf, KeyFileCheck.none());
        new KeyGenerator(config, false).run();
    }

    private Path keystore(String name) {
        return dir.resolve("keys/" + name + ".p12");
    }

    @Test
    void aNodesKeystoreIsReadFromItsFileOnceHoweverManyComponentsAskForItAtOnce() throws Exception {
        int before = PartyKeystore.fileReads("replica0");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<PartyKeystore>> loads = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                loads.add(pool.submit(() -> PartyKeystore.load(keystore("replica0"), "replica0", pw)));
            }
            PartyKeystore first = loads.get(0).get();
            for (Future<PartyKeystore> f : loads) {
                assertSame(first, f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        // the WS-Security profile of the same node reads nothing again
        WsSecurity.forParty(config, "replica0", config.groups().get(0));
        assertEquals(1, PartyKeystore.fileReads("replica0") - before);
    }

    @Test
    void theTruststoreIsReadOnceForEveryComponentOfTheProcess() {
        int before = DeploymentTrust.fileReads();
        Path trust = dir.resolve("keys/truststore.p12");
        DeploymentTrust a = DeploymentTrust.load(trust, pw);
        DeploymentTrust b = DeploymentTrust.load(trust, pw);
        assertSame(a, b);
        assertTrue(a.registered("replica1").isPresent());
        assertEquals(1, DeploymentTrust.fileReads() - before);
    }

    @Test
    void aWrongPasswordIsRefusedByTheFileEvenAfterTheKeysWereShared() {
        PartyKeystore.load(keystore("replica1"), "replica1", pw);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> PartyKeystore.load(keystore("replica1"), "replica1", "guess".toCharArray()));
        assertTrue(e.getMessage().contains("wrong store password"), e.getMessage());
        assertThrows(IllegalStateException.class,
                () -> DeploymentTrust.load(dir.resolve("keys/truststore.p12"), "guess".toCharArray()));
    }

    @Test
    void aFailedReadIsNotRememberedSoTheRightPasswordStillOpensTheStore() {
        assertThrows(IllegalStateException.class,
                () -> PartyKeystore.load(keystore("replica2"), "replica2", "guess".toCharArray()));
        int before = PartyKeystore.fileReads("replica2");
        PartyKeystore keys = PartyKeystore.load(keystore("replica2"), "replica2", pw);
        assertSame(keys, PartyKeystore.load(keystore("replica2"), "replica2", pw));
        assertEquals(1, PartyKeystore.fileReads("replica2") - before);
    }

    @Test
    void aKeystoreRewrittenByKeygenForceIsReadAgain() {
        PartyKeystore old = PartyKeystore.load(keystore("replica3"), "replica3", pw);
        new KeyGenerator(config, true).run();
        PartyKeystore fresh = PartyKeystore.load(keystore("replica3"), "replica3", pw);
        assertNotEquals(old.certificate(), fresh.certificate());
    }
}
