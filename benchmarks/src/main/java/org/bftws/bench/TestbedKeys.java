package org.bftws.bench;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.config.SecurityProfile;
import org.bftws.security.KeyGenerator;

/**
 * The testbed's keys, kept between runs in one directory (home/testbed/keys). They are made once, through the
 * keygen API, for every name any testbed run uses (replica0..3, exec0..2 in one group, and the client), so each
 * run's replicas.xml names a subset and keygen never has to rewrite a store another run is reading.
 */
final class TestbedKeys {

    /**
     * What the kept keys hold, written after keygen: stores made before a release that added keys (2: MAC keys
     * between the client and every node; 3: the echo relay's replicas relay0..3; 4: every node's Ed25519 proof key)
     * get keygen again, which keeps every key and adds the missing ones; 5: the key-value sample's
     * execution nodes kv-exec0..2 of {@code --services 2}; 6: the second client party of {@code --hostile}; 7: MAC
     * keys between every two nodes, so the 3-tier echo's relays MAC their nested calls to the echo replicas).
     */
    static final String FORMAT = "7";

    /** Every store's password: these are throw-away keys for one machine, not a deployment's. */
    static final String PASSWORD = "bftws-testbed";

    private final Path dir;

    TestbedKeys(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
    }

    Path dir() {
        return dir;
    }

    Path truststore() {
        return dir.resolve("truststore.p12");
    }

    /**
     * Creates the keys when any is missing; returns what it did. Parallel runs serialise on a lock file, and the
     * second finds the keys made.
     */
    String ensure() throws IOException {
        if (complete()) {
            return "kept the testbed's keys in " + dir;
        }
        Files.createDirectories(dir);
        try (FileChannel lockFile = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            FileLock lock = lockFile.lock(); // released when the channel closes
            if (!lock.isValid() || complete()) {
                return "kept the testbed's keys in " + dir;
            }
            Path parties = dir.resolve("parties.xml");
            // Configuration III shared by echo and kv: replica0..3 with exec0..2 and with kv-exec0..2, so every pair
            // a run of any configuration needs shares a key
            String xml = TestbedDeployment.sharedXml(sharedLayout(), SecurityProfile.MAC, this, null,
                    org.bftws.config.ReplicaChannelKind.BINARY, false);
            // the 3-tier echo's relay group as a second group of the same file (its names only matter here)
            String relays = TestbedDeployment.threeTierXml(List.of(), TestbedDeployment.relayLayout(
                    IntStream.rangeClosed(11, 14).boxed().toList(), IntStream.rangeClosed(111, 114).boxed().toList()),
                    SecurityProfile.MAC, this, null, org.bftws.config.ReplicaChannelKind.BINARY, false);
            String relayGroup = relays.substring(relays.indexOf("  <group"), relays.indexOf("  </group>") + 11);
            int clients = xml.indexOf("  <client ");
            Files.writeString(parties, xml.substring(0, clients) + relayGroup + xml.substring(clients));
            new KeyGenerator(ReplicasConfigReader.read(parties, KeyFileCheck.none()), false).run();
            Files.writeString(format(), FORMAT);
            return "created the testbed's keys (CA, " + (names().size()) + " parties, proof keys, pairwise MAC keys) in "
                    + dir;
        }
    }

    private Path format() {
        return dir.resolve("format");
    }

    private boolean complete() throws IOException {
        return Files.isRegularFile(format()) && Files.readString(format()).trim().equals(FORMAT)
                && Files.isRegularFile(truststore()) && Files.isRegularFile(dir.resolve("ca.p12"))
                && names().stream().allMatch(n -> Files.isRegularFile(dir.resolve(n + ".p12")));
    }

    /** The layout of {@code --services 2} on placeholder ports: its names are the superset of replica names. */
    private static List<TestbedDeployment.Node> sharedLayout() {
        return TestbedDeployment.sharedLayout(IntStream.rangeClosed(21, 34).boxed().toList(),
                IntStream.rangeClosed(121, 134).boxed().toList());
    }

    private static List<String> names() {
        return Stream.of(sharedLayout().stream().map(TestbedDeployment.Node::name).distinct(), TestbedDeployment.relayLayout(List.of(1, 2, 3, 4), List.of(101, 102, 103, 104)).stream()
                .map(TestbedDeployment.Node::name), Stream.of(TestbedDeployment.CLIENT,
                TestbedDeployment.HOSTILE_CLIENT)).flatMap(x -> x).toList();
    }
}
