package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.bftws.config.Configuration;
import org.bftws.config.GroupConfig;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.NodeConfig;
import org.bftws.config.NodeRole;
import org.bftws.config.ReplicaChannelKind;
import org.bftws.config.ReplicasConfig;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.config.SecurityProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replicas.xml a testbed run writes is one the module's reader accepts, in every configuration. */
class TestbedDeploymentTest {

    @TempDir
    Path dir;

    private ReplicasConfig written(String... args) throws Exception {
        TestbedOptions options = TestbedOptions.parse(args);
        TestbedDeployment d = TestbedDeployment.write(options, dir, new TestbedKeys(dir.resolve("keys")));
        return ReplicasConfigReader.read(d.file(), KeyFileCheck.none());
    }

    @Test
    void configurationIHasFourAgreeExecuteReplicasOnDistinctLoopbackPortsWithTheChosenProfile() throws Exception {
        GroupConfig g = written("--security", "wssec").groups().get(0);
        assertEquals(1, g.f());
        assertEquals(SecurityProfile.WSSEC, g.security().profile());
        assertEquals(List.of(NodeRole.AGREE_EXECUTE), g.nodes().stream().map(NodeConfig::role).distinct().toList());
        Set<Integer> ports = g.nodes().stream().map(n -> n.serviceEndpoint().getPort()).collect(Collectors.toSet());
        assertEquals(4, ports.size());
        assertTrue(g.nodes().stream().allMatch(n -> n.serviceEndpoint().getHost().equals("127.0.0.1")
                && n.controlEndpoint().getPort() == n.serviceEndpoint().getPort()));
        assertEquals(TestbedDeployment.GROUP_ENDPOINT, g.endpoint().toString());
    }

    @Test
    void onlyTheNodeOfAByzantineRunIsAllowedToLieAndOnlyInSuchARun() throws Exception {
        assertEquals(List.of(), allowedToLie(written()));
        assertEquals(List.of("replica3"), allowedToLie(written("--byzantine", "flood")));
        assertEquals(List.of("replica0"), allowedToLie(written("--byzantine", "equivocate")));
        assertTrue(TestbedOptions.parse("--byzantine", "replay").protocol().contains("checkpointInterval=\"16\""),
                "a Byzantine run checkpoints often unless --protocol says otherwise");
    }

    private static List<String> allowedToLie(ReplicasConfig config) {
        return config.groups().get(0).nodes().stream().filter(NodeConfig::byzantineAllowed).map(NodeConfig::name)
                .toList();
    }

    @Test
    void theReplicasExchangePbftMessagesOverTheBinaryChannelOnPortsOfTheirOwnUnlessSoapIsAskedFor() throws Exception {
        GroupConfig binary = written().groups().get(0);
        assertEquals(ReplicaChannelKind.BINARY, binary.replicaChannel());
        Set<Integer> ports = binary.nodes().stream().flatMap(n -> java.util.stream.Stream.of(
                n.serviceEndpoint().getPort(), n.channelEndpoint().getPort())).collect(Collectors.toSet());
        assertEquals(8, ports.size(), "an HTTP and a channel port per node, all distinct");
        assertTrue(binary.nodes().stream().allMatch(n -> n.channelEndpoint().toString().startsWith("tcp://127.0.0.1:")));
        assertEquals(ReplicaChannelKind.SOAP, written("--channel", "soap").groups().get(0).replicaChannel());
        assertTrue(TestbedOptions.parse(new String[] {"--channel", "soap"}).describe()
                .contains("PBFT over the soap channel"));
    }

    @Test
    void theTestbedRunsItsLinksOverTlsUnlessTlsOffIsAskedFor() throws Exception {
        assertTrue(written().tlsOn(), "the default deployment has <tls>");
        assertEquals(java.util.List.of("TLSv1.3"), written().tls().protocols());
        assertTrue(written("--tiers", "3").tlsOn());
        assertTrue(!written("--tls", "off").tlsOn(), "--tls off writes no <tls>: plain TCP and HTTP");
    }

    @Test
    void readOnlyDeclaresEchoReadOnlyWithOrWithoutProtocolAttributes() throws Exception {
        assertTrue(written("--read-only").groups().get(0).readOnlyOperation("echo").isPresent());
        GroupConfig both = written("--read-only", "--protocol", "batchMaxDelay=3ms").groups().get(0);
        assertTrue(both.readOnlyOperation("echo").isPresent());
        assertEquals(java.time.Duration.ofMillis(3), both.protocol().batchMaxDelay());
        assertTrue(written().groups().get(0).operations().isEmpty());
        assertTrue(both.readOnlyOperation("append").isEmpty());
    }

    @Test
    void tentativeTurnsTentativeExecutionOnInTheWrittenReplicasXml() throws Exception {
        assertTrue(written("--tentative").groups().get(0).protocol().tentativeExecution());
        GroupConfig two = written("--tentative", "--config", "II", "--read-only").groups().get(0);
        assertTrue(two.protocol().tentativeExecution());
        assertTrue(two.readOnlyOperation("echo").isPresent());
        assertEquals(false, written().groups().get(0).protocol().tentativeExecution());
    }

    @Test
    void configurationsIIAndIIIGetTheirRolesAndUnreplicatedIsOneWsrmOnlyNode() throws Exception {
        GroupConfig two = written("--config", "II").groups().get(0);
        assertEquals(Configuration.II, two.configuration());
        assertEquals(3, two.executionNodes().size());
        assertEquals(4, two.agreementNodes().size());
        GroupConfig three = written("--config", "III").groups().get(0);
        assertEquals(7, three.nodes().size());
        assertEquals(List.of("exec0", "exec1", "exec2"),
                three.executionNodes().stream().map(NodeConfig::name).toList());
        GroupConfig one = written("--unreplicated", "--security", "none").groups().get(0);
        assertEquals(1, one.nodes().size());
        assertTrue(one.wsrmOnly());
    }

    @Test
    void theTestbedKeysCoverEveryNameAnyRunUses() throws Exception {
        TestbedKeys keys = new TestbedKeys(dir.resolve("keys"));
        assertTrue(keys.ensure().startsWith("created"));
        assertTrue(keys.ensure().startsWith("kept"));
        TestbedDeployment d = TestbedDeployment.write(TestbedOptions.parse(new String[] {"--config", "III"}), dir,
                keys);
        ReplicasConfigReader.read(d.file(), KeyFileCheck.all()); // throws if any key file were missing
        TestbedDeployment shared = TestbedDeployment.write(TestbedOptions.parse("--config", "III", "--services", "2"),
                dir, keys);
        ReplicasConfigReader.read(shared.file(), KeyFileCheck.all());
    }

    @Test
    void twoServicesShareTheFourAgreementNodesEachWithItsOwnThreeExecutionNodesAndPortsPerService()
            throws Exception {
        ReplicasConfig config = written("--config", "III", "--services", "2");
        GroupConfig echo = config.groupByService(TestbedDeployment.SERVICE).orElseThrow();
        GroupConfig kv = config.groupByService(TestbedDeployment.KV_SERVICE).orElseThrow();
        for (GroupConfig g : List.of(echo, kv)) {
            assertEquals(Configuration.III, g.configuration());
            assertEquals(List.of("replica0", "replica1", "replica2", "replica3"),
                    g.agreementNodes().stream().map(NodeConfig::name).toList());
        }
        assertEquals(List.of("exec0", "exec1", "exec2"), echo.executionNodes().stream().map(NodeConfig::name).toList());
        assertEquals(List.of("kv-exec0", "kv-exec1", "kv-exec2"),
                kv.executionNodes().stream().map(NodeConfig::name).toList());
        Set<Integer> ports = config.groups().stream().flatMap(g -> g.nodes().stream()).flatMap(n -> java.util.stream
                .Stream.of(n.serviceEndpoint().getPort(), n.channelEndpoint().getPort())).collect(Collectors.toSet());
        assertEquals(28, ports.size(), "an agreement node serves each service on ports of its own");
    }

    @Test
    void crashPrimaryKillsThePrimaryOfTheCurrentViewAndCrashBackupAnotherNode() throws Exception {
        TestbedDeployment d = TestbedDeployment.write(TestbedOptions.parse(new String[] {"--security", "none"}), dir,
                new TestbedKeys(dir.resolve("keys")));
        assertEquals("replica0", d.crashTarget("primary", 0).name());
        assertEquals("replica3", d.crashTarget("backup", 0).name());
        assertEquals("replica1", d.crashTarget("primary", 1).name(), "after one view change replica1 is the primary");
        assertEquals("replica0", d.crashTarget("backup", 1).name());
        assertEquals("replica2", d.crashTarget("primary", 6).name());
    }

    @Test
    void inAThreeTierRunCrashNamesARelayReplicaAndEchoCrashAReplicaOfTheEchoGroupBehindThem() throws Exception {
        TestbedDeployment d = TestbedDeployment.write(TestbedOptions.parse("--tiers", "3"), dir,
                new TestbedKeys(dir.resolve("keys")));
        assertEquals("relay0", d.crashTarget("primary", 0).name());
        assertEquals("relay3", d.crashTarget("backup", 0).name());
        assertEquals("replica0", d.crashTarget("echo-primary", 0).name());
        assertEquals("replica3", d.crashTarget("echo-backup", 0).name());
        assertEquals("replica1", d.crashTarget("echo-primary", 1).name());
    }

    @Test
    void theHostileClientIsASecondClientPartyWhoseCopyOfReplicasXmlCarriesItsOwnPacing() throws Exception {
        TestbedOptions options = TestbedOptions.parse("--hostile", "invalid");
        TestbedDeployment d = TestbedDeployment.write(options, dir, new TestbedKeys(dir.resolve("keys")));
        ReplicasConfig group = ReplicasConfigReader.read(d.file(), KeyFileCheck.none());
        assertTrue(group.clients().stream().anyMatch(c -> c.name().equals(TestbedDeployment.HOSTILE_CLIENT)),
                group.clients().toString());
        GroupConfig copy = ReplicasConfigReader.read(d.writeClientCopy(dir.resolve("hostile.xml"),
                options.hostile().protocolAttributes()), KeyFileCheck.none()).groups().get(0);
        assertEquals(java.time.Duration.ofMillis(300), copy.protocol().clientTimeout());
        assertEquals(java.time.Duration.ofMillis(100), copy.protocol().retransmissionInterval());
        assertEquals(1, copy.protocol().maxRetransmissions());
        assertEquals(group.groups().get(0).protocol().batchMaxDelay(), copy.protocol().batchMaxDelay());
        // a <protocol> the run has already keeps its other attributes, and the client's replace its own
        TestbedDeployment tuned = TestbedDeployment.write(TestbedOptions.parse("--hostile", "invalid", "--protocol",
                "batchMaxDelay=7ms,clientTimeout=9s"), dir, new TestbedKeys(dir.resolve("keys")));
        GroupConfig tunedCopy = ReplicasConfigReader.read(tuned.writeClientCopy(dir.resolve("hostile2.xml"),
                options.hostile().protocolAttributes()), KeyFileCheck.none()).groups().get(0);
        assertEquals(java.time.Duration.ofMillis(7), tunedCopy.protocol().batchMaxDelay());
        assertEquals(java.time.Duration.ofMillis(300), tunedCopy.protocol().clientTimeout());
    }
}
