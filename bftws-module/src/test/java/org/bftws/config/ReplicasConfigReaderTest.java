package org.bftws.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.bftws.ordering.CoreOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplicasConfigReaderTest {
    @TempDir
    Path dir;

    private ConfigException refused(ReplicasXml xml) {
        return assertThrows(ConfigException.class, () -> ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()));
    }

    private static void assertMentions(ConfigException e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), () -> "expected '" + part + "' in: " + e.getMessage());
        }
    }

    @Test
    void theSampleDeploymentReadsAsFourReplicasOfEchoServiceWithTheDefaults() {
        ReplicasConfig config = ReplicasConfigReader.read(Path.of("../conf/replicas.xml"), KeyFileCheck.none());
        GroupConfig echo = config.groupByEndpoint(URI.create("http://echo.bftws.group/axis2/services/EchoService"))
                .orElseThrow();
        assertEquals("EchoService", echo.service());
        assertEquals(1, echo.f());
        assertEquals(Configuration.I, echo.configuration());
        assertEquals(4, echo.agreementNodes().size());
        assertEquals(4, echo.executionNodes().size());
        assertEquals(SecurityProfile.MAC, echo.security().profile());
        assertEquals(ProtocolConfig.defaults(), echo.protocol());
        NodeConfig r2 = echo.agreementNodes().get(2);
        assertEquals("replica2", r2.name());
        assertEquals(URI.create("http://127.0.0.1:8083/axis2/services/BftControl"), r2.controlEndpoint());
        assertEquals(ReplicaChannelKind.BINARY, echo.replicaChannel());
        assertEquals(URI.create("tcp://127.0.0.1:9083"), r2.channelEndpoint());
        assertFalse(r2.byzantineAllowed(), "no node may lie unless its <node> says byzantineAllowed=\"true\"");
        Path keys = Path.of("../keys").toAbsolutePath().normalize();
        assertEquals(keys.resolve("replica2.p12"), r2.keystore());
        assertEquals(keys.resolve("truststore.p12"), echo.security().truststore());
        assertEquals(List.of(new ClientConfig("client1", keys.resolve("client1.p12"))), config.clients());
    }

    @Test
    void omittedTunablesTakeTheDefaultsAndGivenOnesAreParsed() {
        ReplicasXml xml = new ReplicasXml();
        xml.protocol = "<protocol batchMaxDelay=\"5ms\" viewChangeTimeout=\"2s\" clientTimeout=\"1m\" batchMaxSize=\"8\"/>";
        ProtocolConfig p = ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0).protocol();
        assertEquals(Duration.ofMillis(5), p.batchMaxDelay());
        assertEquals(Duration.ofSeconds(2), p.viewChangeTimeout());
        assertEquals(Duration.ofMinutes(1), p.clientTimeout());
        assertEquals(8, p.batchMaxSize());
        assertEquals(ProtocolConfig.defaults().checkpointInterval(), p.checkpointInterval());
    }

    @Test
    void threeAgreementNodesForFOneAreRefusedNamingTheGroupItsLineAndTheRule() {
        ReplicasXml xml = new ReplicasXml();
        xml.nodes.remove(3);
        ConfigException e = refused(xml);
        assertEquals(List.of("replicas.xml:4: <group service=\"EchoService\"> lists 3 agreement nodes; f=1 needs 3f+1 = 4"),
                e.problems());
    }

    @Test
    void configurationTwoNeedsTwoFPlusOneExecutingAndFOrderingOnlyNodes() {
        ReplicasXml xml = new ReplicasXml();
        xml.groupAttributes = xml.groupAttributes.replace("\"I\"", "\"II\"");
        assertMentions(refused(xml), "Configuration II", "4 agree-execute, 0 agree", "2f+1 = 3 agree-execute and f = 1 agree");
        xml.nodes.set(3, ReplicasXml.node(3, "replica3", "agree", 9103));
        GroupConfig g = ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0);
        assertEquals(4, g.agreementNodes().size());
        assertEquals(3, g.executionNodes().size());
    }

    @Test
    void configurationThreeNeedsSeparateAgreementAndExecutionNodesWithTheirOwnIds() {
        ReplicasXml xml = new ReplicasXml();
        xml.groupAttributes = xml.groupAttributes.replace("\"I\"", "\"III\"");
        assertMentions(refused(xml), "Configuration III", "3f+1 = 4 agree and 2f+1 = 3 execute nodes");
        for (int i = 0; i < 4; i++) {
            xml.nodes.set(i, ReplicasXml.node(i, "agree" + i, "agree", 9100 + i));
        }
        for (int i = 0; i < 3; i++) {
            xml.nodes.add(1, ReplicasXml.node(2 - i, "exec" + (2 - i), "execute", 9200 + i));
        }
        GroupConfig g = ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0);
        assertEquals(List.of("agree0", "agree1", "agree2", "agree3", "exec0", "exec1", "exec2"),
                g.nodes().stream().map(NodeConfig::name).toList());
    }

    @Test
    void aDuplicateIdIsRefusedNamingBothNodes() {
        ReplicasXml xml = new ReplicasXml();
        xml.nodes.set(3, ReplicasXml.node(1, "replica3", "agree-execute", 9103));
        ConfigException e = refused(xml);
        assertMentions(e, "replicas.xml:9: <node name=\"replica3\"> has id 1, which <node name=\"replica1\"> on line 7",
                "<group service=\"EchoService\"> has no agreement node with id [3]; its 4 agreement nodes must have ids 0..3");
    }

    @Test
    void namesThatDifferOnlyInCaseCollideBecausePkcs12FoldsAliases() {
        ReplicasXml xml = new ReplicasXml();
        xml.clients.add("<client name=\"Replica0\"/>");
        assertMentions(refused(xml), "<client name=\"Replica0\"> uses name Replica0, which <node name=\"replica0\">");
    }

    @Test
    void twoNodesOnOneEndpointAreRefused() {
        ReplicasXml xml = new ReplicasXml();
        xml.nodes.set(3, ReplicasXml.node(3, "replica3", "agree-execute", 9102));
        assertMentions(refused(xml), "<node name=\"replica3\"> uses endpoint http://127.0.0.1:9102/axis2/services/EchoService");
    }

    @Test
    void aZeroWaitForClientsSwitchesBatchPacingOffAndOmittedItWaitsAtMostTheDefault() {
        ReplicasXml xml = new ReplicasXml();
        xml.protocol = "<protocol batchWaitForClients=\"0ms\"/>";
        ProtocolConfig off = ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0).protocol();
        assertEquals(Duration.ZERO, off.batchWaitForClients());
        xml.protocol = "<protocol/>";
        ProtocolConfig omitted = ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0).protocol();
        assertEquals(Duration.ofMillis(100), omitted.batchWaitForClients());
    }

    @Test
    void idleSequencesExpireAfterAnHourByDefaultAndTheLimitAndClockBoundAreReadOrSwitchedOff() {
        ReplicasXml xml = new ReplicasXml();
        xml.protocol = "<protocol/>";
        ProtocolConfig defaults = ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0).protocol();
        assertEquals(Duration.ofHours(1), defaults.sequenceIdleLimit());
        assertEquals(Duration.ofSeconds(5), defaults.clockSkewBound());
        xml.protocol = "<protocol sequenceIdleLimit=\"10m\" clockSkewBound=\"2s\"/>";
        ProtocolConfig given = ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0).protocol();
        assertEquals(Duration.ofMinutes(10), given.sequenceIdleLimit());
        assertEquals(Duration.ofSeconds(2), given.clockSkewBound());
        xml.protocol = "<protocol sequenceIdleLimit=\"0ms\"/>";
        assertEquals(Duration.ZERO, ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0)
                .protocol().sequenceIdleLimit(), "0ms: sequences never expire");
    }

    @Test
    void anIdleLimitWithinFourClockBoundsAndAZeroClockBoundAreRefused() {
        ReplicasXml xml = new ReplicasXml();
        xml.protocol = "<protocol sequenceIdleLimit=\"10s\" clockSkewBound=\"5s\"/>";
        assertMentions(refused(xml), "<protocol> has sequenceIdleLimit 10s shorter than 4 x clockSkewBound (5s)");
        xml.protocol = "<protocol clockSkewBound=\"0ms\"/>";
        assertMentions(refused(xml), "<protocol> has clockSkewBound=\"0ms\"; it must be positive");
    }

    @Test
    void tentativeExecutionIsReadFromTheProtocolElementAndReachesTheCoresOptions() {
        ReplicasXml xml = new ReplicasXml();
        xml.protocol = "<protocol batchMaxSize=\"8\" tentativeExecution=\"true\"/>";
        ProtocolConfig p = ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0).protocol();
        assertTrue(p.tentativeExecution());
        assertEquals(8, p.batchMaxSize());
        assertTrue(CoreOptions.options(p).tentativeExecution());
        assertEquals(8, CoreOptions.options(p).batchMaxSize());

        xml.groupAttributes = xml.groupAttributes.replace("\"I\"", "\"II\"");
        xml.nodes.set(3, ReplicasXml.node(3, "replica3", "agree", 9103));
        GroupConfig two = ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0);
        assertTrue(two.protocol().tentativeExecution(), "Configuration II: every executor orders");
    }

    @Test
    void limitsAreReadFromTheLimitsElementWithSafeDefaultsForWhatItLeavesOut() {
        ReplicasXml xml = new ReplicasXml();
        LimitsConfig silent = ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0).limits();
        assertEquals(LimitsConfig.defaults(), silent);
        assertEquals(java.time.Duration.ofSeconds(3), silent.staleConnectionAfter(java.time.Duration.ofSeconds(3)),
                "a queued connection is stale once its client's own timeout has passed");
        xml.protocol = "<protocol/><limits maxQueuedConnections=\"50\" staleConnectionAfter=\"800ms\""
                + " refusalsPerSecondPerAddress=\"5\" maxSequencesPerClient=\"4\" maxHeldExchangesPerClient=\"2\"/>";
        LimitsConfig l = ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0).limits();
        assertEquals(new LimitsConfig(50, java.time.Duration.ofMillis(800), 5, 4, 2), l);
        xml.protocol = "<protocol/><limits maxSequencesPerClient=\"0\"/>";
        assertMentions(refused(xml), "maxSequencesPerClient");
    }

    @Test
    void tentativeExecutionIsOffByDefault() {
        ReplicasXml xml = new ReplicasXml();
        ProtocolConfig none = ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0).protocol();
        assertFalse(none.tentativeExecution());
        assertFalse(CoreOptions.options(none).tentativeExecution());
        xml.protocol = "<protocol batchMaxSize=\"8\"/>";
        ProtocolConfig omitted = ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0)
                .protocol();
        assertFalse(omitted.tentativeExecution());
        assertFalse(CoreOptions.options(omitted).tentativeExecution());
        xml.protocol = "<protocol tentativeExecution=\"false\"/>";
        assertEquals(ProtocolConfig.defaults(), ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none())
                .groups().get(0).protocol());
    }

    @Test
    void tentativeExecutionInConfigurationThreeIsRefusedNamingTheSetting() {
        ReplicasXml xml = new ReplicasXml();
        xml.groupAttributes = xml.groupAttributes.replace("\"I\"", "\"III\"");
        xml.protocol = "<protocol tentativeExecution=\"true\"/>";
        for (int i = 0; i < 4; i++) {
            xml.nodes.set(i, ReplicasXml.node(i, "agree" + i, "agree", 9100 + i));
        }
        for (int i = 0; i < 3; i++) {
            xml.nodes.add(ReplicasXml.node(i, "exec" + i, "execute", 9200 + i));
        }
        ConfigException e = refused(xml);
        assertEquals(List.of("replicas.xml:4: <group service=\"EchoService\"> is Configuration III with execution-only"
                + " nodes (role execute), but its <protocol> sets tentativeExecution=\"true\"; tentative execution"
                + " needs every executor to take part in ordering: use Configuration I or II, or remove"
                + " tentativeExecution"), e.problems());
        xml.protocol = "<protocol tentativeExecution=\"false\"/>";
        assertEquals(7, ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0).nodes().size());
    }

    @Test
    void aTentativeExecutionThatIsNeitherTrueNorFalseIsRefusedWithItsLine() {
        ReplicasXml xml = new ReplicasXml();
        xml.protocol = "<protocol tentativeExecution=\"yes\"/>";
        ConfigException e = refused(xml);
        assertTrue(e.problems().stream().anyMatch(p -> p.startsWith("replicas.xml:6: <protocol>")
                && p.contains("'yes'") && p.contains("tentativeExecution")), e::getMessage);
    }

    @Test
    void zeroDurationsAndCountsAreRefusedAsNotPositive() {
        ReplicasXml xml = new ReplicasXml();
        xml.protocol = "<protocol batchMaxDelay=\"0ms\" maxRetransmissions=\"0\"/>";
        ConfigException e = refused(xml);
        assertMentions(e, "<protocol> has batchMaxDelay=\"0ms\"; it must be positive",
                "<protocol> has maxRetransmissions=\"0\"; it must be positive");
    }

    @Test
    void schemaErrorsNameTheElementAndLineNotJustTheType() {
        ReplicasXml xml = new ReplicasXml();
        xml.security = "<security profile=\"rsa\"/>";
        xml.protocol = "<protocol clientTimeout=\"3 seconds\"/>";
        ConfigException e = refused(xml);
        assertTrue(e.problems().stream().anyMatch(p -> p.startsWith("replicas.xml:5: <security profile=\"rsa\">")
                && p.contains("rsa")), e::getMessage);
        assertTrue(e.problems().stream().anyMatch(p -> p.startsWith("replicas.xml:6: <protocol>")
                && p.contains("3 seconds")), e::getMessage);
    }

    @Test
    void anUnknownElementIsRefusedByTheSchema() {
        ReplicasXml xml = new ReplicasXml();
        xml.nodes.add("<replica id=\"4\"/>");
        assertMentions(refused(xml), "replicas.xml:10:", "replica");
    }

    @Test
    void notWellFormedXmlIsReportedWithItsLine() {
        ReplicasXml xml = new ReplicasXml();
        xml.nodes.set(1, "<node id=\"1\"");
        assertMentions(refused(xml), "replicas.xml:", "not well-formed XML");
    }

    @Test
    void aSignedProfileWithoutKeysElementIsRefusedWithAHint() {
        ReplicasXml xml = new ReplicasXml();
        xml.keys = "";
        assertMentions(refused(xml), "<security profile=\"wssec\"> needs keys", "./bftws keygen");
    }

    @Test
    void missingKeyFilesAreNamedWithTheKeygenHintAndRelativePathsResolveAgainstTheFile() {
        Path file = new ReplicasXml().writeTo(dir);
        ConfigException e = assertThrows(ConfigException.class, () -> ReplicasConfigReader.read(file));
        assertMentions(e, "names truststore " + dir.toAbsolutePath().normalize().resolve("keys/truststore.p12"),
                "<node name=\"replica3\"> has keystore", "<client name=\"client1\"> has keystore", "run ./bftws keygen");
        ConfigException one = assertThrows(ConfigException.class,
                () -> ReplicasConfigReader.read(file, KeyFileCheck.forParty("replica2")));
        assertEquals(2, one.problems().size(), one::getMessage);
        assertMentions(one, "replica2.p12");
    }

    @Test
    void presentKeyFilesSatisfyTheCheck() throws Exception {
        Path file = new ReplicasXml().writeTo(dir);
        Files.createDirectories(dir.resolve("keys"));
        for (String name : List.of("truststore", "replica0", "replica1", "replica2", "replica3", "client1")) {
            Files.writeString(dir.resolve("keys/" + name + ".p12"), "x");
        }
        assertEquals(4, ReplicasConfigReader.read(file).groups().get(0).nodes().size());
    }

    @Test
    void aNoneProfileNeedsNoKeys() {
        ReplicasXml xml = new ReplicasXml();
        xml.keys = "";
        xml.security = "";
        GroupConfig g = ReplicasConfigReader.read(xml.writeTo(dir)).groups().get(0);
        assertEquals(SecurityProfile.NONE, g.security().profile());
        assertNull(g.nodes().get(0).keystore());
    }

    @Test
    void aSingleNodeGroupWithFZeroIsPlainWsrm() {
        ReplicasXml xml = new ReplicasXml();
        xml.groupAttributes = xml.groupAttributes.replace("f=\"1\"", "f=\"0\"");
        xml.nodes.subList(1, 4).clear();
        assertTrue(ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0).wsrmOnly());
    }

    @Test
    void theBinaryReplicaChannelIsTheDefaultAndEveryNodeOfItsGroupNamesItsChannelAddress() {
        GroupConfig g = ReplicasConfigReader.read(new ReplicasXml().writeTo(dir), KeyFileCheck.none()).groups().get(0);
        assertEquals(ReplicaChannelKind.BINARY, g.replicaChannel());
        assertEquals(URI.create("tcp://127.0.0.1:10101"), g.nodes().get(1).channelEndpoint());
    }

    @Test
    void aNodeWithoutAChannelAddressInABinaryGroupIsRefusedWithWhatToAdd() {
        ReplicasXml xml = new ReplicasXml();
        xml.nodes.set(2, xml.nodes.get(2).replace(" channelEndpoint=\"tcp://127.0.0.1:10102\"", ""));
        assertMentions(refused(xml), "replicas.xml:8: <node name=\"replica2\"> has no channelEndpoint",
                "binary replica channel (replicaChannel=\"binary\", the default)", "channelEndpoint=\"tcp://HOST:PORT\"",
                "or set replicaChannel=\"soap\"");
    }

    @Test
    void theSoapReplicaChannelNeedsNoChannelAddresses() {
        ReplicasXml xml = new ReplicasXml();
        xml.groupAttributes += " replicaChannel=\"soap\"";
        xml.nodes.replaceAll(n -> n.replaceAll(" channelEndpoint=\"[^\"]*\"", ""));
        GroupConfig g = ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0);
        assertEquals(ReplicaChannelKind.SOAP, g.replicaChannel());
        assertNull(g.nodes().get(0).channelEndpoint());
    }

    @Test
    void aChannelAddressMustBeTcpHostAndPortOnAPortOfItsOwn() {
        ReplicasXml xml = new ReplicasXml();
        xml.nodes.set(1, xml.nodes.get(1).replace("tcp://127.0.0.1:10101", "http://127.0.0.1:10101/x"));
        assertMentions(refused(xml), "replicas.xml:7", "channelEndpoint", "TcpAddress");

        ReplicasXml twice = new ReplicasXml();
        twice.nodes.set(3, twice.nodes.get(3).replace("tcp://127.0.0.1:10103", "tcp://127.0.0.1:10100"));
        assertMentions(refused(twice), "<node name=\"replica3\"> uses channelEndpoint tcp://127.0.0.1:10100, which"
                + " <node name=\"replica0\"> on line 6 already uses");

        ReplicasXml onHttp = new ReplicasXml();
        onHttp.nodes.set(3, onHttp.nodes.get(3).replace("tcp://127.0.0.1:10103", "tcp://127.0.0.1:9101"));
        assertMentions(refused(onHttp), "<node name=\"replica3\"> uses channelEndpoint tcp://127.0.0.1:9101, whose port"
                + " the HTTP endpoint of <node name=\"replica1\"> on line 7 uses");
    }

    /** Found by ReplicasXmlFuzzTest (its input crash-adf6bd30... is kept): the schema's anyURI lets this through. */
    @Test
    void anEndpointThatIsNoUriIsAProblemWithItsLineNotAnIllegalArgumentException() {
        ReplicasXml xml = new ReplicasXml();
        xml.nodes.set(1, xml.nodes.get(1).replace("/axis2/services/BftControl", "/axi{2/services/BftControl"));
        ConfigException e = refused(xml);
        assertEquals(1, e.problems().size(), e.getMessage());
        assertMentions(e, "replicas.xml:7: ", "replica1", "has controlEndpoint=\"http://127.0.0.1:9101/axi{2/services/BftControl\","
                + " which is not a URI: Illegal character in path at character 26");
    }
}
