package org.bftws.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** replicas.xml's {@code <caller group="..."/>}: which groups may call a group with nested requests (paper 3.4). */
class CallerGroupsConfigTest {

    @TempDir
    Path dir;

    static String group(String service, String prefix, int port, String profile, String configuration, String extra) {
        StringBuilder b = new StringBuilder("<group service=\"" + service + "\" endpoint=\"http://" + prefix
                + ".bftws.group/axis2/services/" + service + "\" f=\"1\" configuration=\"" + configuration + "\">\n"
                + "<security profile=\"" + profile + "\"/>\n");
        List<String> roles = configuration.equals("II") ? List.of("agree-execute", "agree-execute", "agree-execute",
                "agree") : List.of("agree-execute", "agree-execute", "agree-execute", "agree-execute");
        for (int i = 0; i < 4; i++) {
            b.append("<node id=\"").append(i).append("\" name=\"").append(prefix).append(i).append("\" role=\"")
                    .append(roles.get(i)).append("\" serviceEndpoint=\"http://127.0.0.1:").append(port + i)
                    .append("/axis2/services/").append(service).append("\" controlEndpoint=\"http://127.0.0.1:")
                    .append(port + i).append("/axis2/services/BftControl\" channelEndpoint=\"tcp://127.0.0.1:")
                    .append(port + 1000 + i).append("\"/>\n");
        }
        return b.append(extra).append("</group>\n").toString();
    }

    Path write(String... groups) throws IOException {
        return Files.writeString(dir.resolve("replicas.xml"), "<?xml version=\"1.0\"?>\n<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>\n" + String.join("", groups)
                + "<client name=\"client1\"/>\n</replicas>\n");
    }

    @Test
    void aBackendGroupLearnsItsCallerGroupAndThroughItTheCallerReplicasAndP() throws IOException {
        ReplicasConfig c = ReplicasConfigReader.read(write(
                group("EchoRelayService", "relay", 9200, "mac", "I", ""),
                group("EchoService", "backend", 9300, "mac", "I", "<caller group=\"EchoRelayService\"/>\n")),
                KeyFileCheck.none());
        GroupConfig backend = c.groupByService("EchoService").orElseThrow();
        assertEquals(List.of("EchoRelayService"), backend.callers());
        GroupConfig relay = c.callersOf(backend).get(0);
        assertEquals(1, relay.f());
        assertEquals(List.of("relay0", "relay1", "relay2", "relay3"),
                relay.executionNodes().stream().map(NodeConfig::name).toList());
        assertEquals(List.of(), c.callersOf(relay));
    }

    @Test
    void anUnknownOrOwnOrDuplicatedCallerGroupIsRefusedNamingTheLine() throws IOException {
        ConfigException e = assertThrows(ConfigException.class, () -> ReplicasConfigReader.read(write(
                group("EchoService", "backend", 9300, "mac", "I",
                        "<caller group=\"Relay\"/>\n<caller group=\"EchoService\"/>\n<caller group=\"Relay\"/>\n")),
                KeyFileCheck.none()));
        assertEquals(List.of(
                "replicas.xml:10: <caller> names caller group Relay, but no <group service=\"Relay\"> is"
                        + " in this file; the callee learns the caller replicas' names and p from it",
                "replicas.xml:11: <caller> names its own group as a caller; a group does not call"
                        + " itself",
                "replicas.xml:12: <caller> names caller group Relay twice"), e.problems());
    }

    @Test
    void aCalleeWithoutSignaturesOrACallerOfConfigurationTwoIsRefused() throws IOException {
        ConfigException e = assertThrows(ConfigException.class, () -> ReplicasConfigReader.read(write(
                group("EchoRelayService", "relay", 9200, "mac", "II", ""),
                group("EchoService", "backend", 9300, "none", "I", "<caller group=\"EchoRelayService\"/>\n")),
                KeyFileCheck.none()));
        assertEquals(2, e.problems().size(), e.problems().toString());
        assertTrue(e.problems().get(0).contains("has callers but security profile none"), e.problems().get(0));
        assertTrue(e.problems().get(1).contains("of Configuration II; only Configuration I groups can make nested"
                + " calls so far"), e.problems().get(1));
    }

    @Test
    void aCallerGroupWithTentativeExecutionIsRefusedBecauseANestedCallCannotBeUndone() throws IOException {
        String tentative = "<security profile=\"mac\"/>\n<protocol tentativeExecution=\"true\"/>\n";
        ConfigException e = assertThrows(ConfigException.class, () -> ReplicasConfigReader.read(write(
                group("EchoRelayService", "relay", 9200, "mac", "I", "").replace("<security profile=\"mac\"/>\n",
                        tentative),
                group("EchoService", "backend", 9300, "mac", "I", "<caller group=\"EchoRelayService\"/>\n")),
                KeyFileCheck.none()));
        assertEquals(List.of("replicas.xml:18: <caller> names caller group EchoRelayService, whose <protocol> sets"
                + " tentativeExecution=\"true\"; a nested call made by a tentative execution cannot be undone if a"
                + " view change discards that execution: a group that makes nested calls runs without tentative"
                + " execution"), e.problems());
        ReplicasConfig calleeOnly = ReplicasConfigReader.read(write(
                group("EchoRelayService", "relay", 9200, "mac", "I", ""),
                group("EchoService", "backend", 9300, "mac", "I", "<caller group=\"EchoRelayService\"/>\n")
                        .replace("<security profile=\"mac\"/>\n", tentative)),
                KeyFileCheck.none());
        assertTrue(calleeOnly.groupByService("EchoService").orElseThrow().protocol().tentativeExecution(),
                "the callee's own executions make no nested calls");
    }
}
