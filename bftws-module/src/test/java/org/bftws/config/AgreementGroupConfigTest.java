package org.bftws.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * replicas.xml's {@code <agreementGroup>}: one set of 3f+1 agreement nodes ordering several services, each with its
 * own execution nodes and endpoint, read as one Configuration III group per service.
 */
class AgreementGroupConfigTest {

    @TempDir
    Path dir;

    private static String node(int id, String name, String role, int port) {
        String base = "http://127.0.0.1:" + port + "/axis2/services/";
        return "<node id=\"" + id + "\" name=\"" + name + "\" role=\"" + role + "\" serviceEndpoint=\"" + base + "S\""
                + " controlEndpoint=\"" + base + "BftControl\" channelEndpoint=\"tcp://127.0.0.1:" + (port + 1000)
                + "\"/>\n";
    }

    /** A service of the agreement group: agreement nodes {@code agreement} (ids 0..), execution nodes PREFIX-exec0..2. */
    private static String service(String name, String prefix, int firstPort, List<String> agreement) {
        StringBuilder x = new StringBuilder("<service name=\"" + name + "\" endpoint=\"http://" + prefix
                + ".bftws.group/axis2/services/" + name + "\">\n");
        int port = firstPort;
        for (int i = 0; i < agreement.size(); i++) {
            x.append(node(i, agreement.get(i), "agree", port++));
        }
        for (int i = 0; i < 3; i++) {
            x.append(node(i, prefix + "-exec" + i, "execute", port++));
        }
        return x.append("</service>\n").toString();
    }

    private static final List<String> AGREEMENT = List.of("agree0", "agree1", "agree2", "agree3");

    private Path write(String services) throws Exception {
        return Files.writeString(dir.resolve("replicas.xml"), "<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<agreementGroup f=\"1\" dataDirectory=\"data\">\n<protocol checkpointInterval=\"32\""
                + " watermarkWindow=\"64\"/>\n" + services + "</agreementGroup>\n<client name=\"client1\"/>\n"
                + "</replicas>\n");
    }

    @Test
    void eachServiceIsAConfigurationThreeGroupOfTheSharedAgreementNodesAndItsOwnExecutionNodes() throws Exception {
        ReplicasConfig config = ReplicasConfigReader.read(write(service("EchoService", "echo", 8100, AGREEMENT)
                + service("KvService", "kv", 8200, AGREEMENT)), KeyFileCheck.none());
        assertEquals(2, config.groups().size());
        GroupConfig echo = config.groupByService("EchoService").orElseThrow();
        GroupConfig kv = config.groupByService("KvService").orElseThrow();
        for (GroupConfig g : List.of(echo, kv)) {
            assertEquals(Configuration.III, g.configuration());
            assertEquals(1, g.f());
            assertEquals(32, g.protocol().checkpointInterval(), "the agreement group's tunables hold for each service");
            assertEquals(AGREEMENT, g.agreementNodes().stream().map(NodeConfig::name).toList());
        }
        assertEquals(List.of("echo-exec0", "echo-exec1", "echo-exec2"),
                echo.executionNodes().stream().map(NodeConfig::name).toList());
        assertEquals(List.of("kv-exec0", "kv-exec1", "kv-exec2"),
                kv.executionNodes().stream().map(NodeConfig::name).toList());
        assertEquals(URI.create("http://kv.bftws.group/axis2/services/KvService"), kv.endpoint());
        assertEquals(dir.resolve("data").resolve("KvService"), kv.dataDirectory(),
                "an agreement node keeps one log per service it orders");
        assertEquals(List.of(echo, kv), config.groupsOfNode("agree2"));
        assertEquals(kv, config.groupOfNode("agree2", "KvService").orElseThrow());
        assertEquals(echo, config.groupOfNode("echo-exec1", null).orElseThrow());
        IllegalArgumentException which = assertThrows(IllegalArgumentException.class,
                () -> config.groupOfNode("agree2", null));
        assertTrue(which.getMessage().contains("agree2 orders several services (EchoService, KvService)"),
                which.getMessage());
        assertEquals(1, config.partyNames().stream().filter("agree2"::equals).count(), "one party, one key");
    }

    @Test
    void servicesThatListDifferentAgreementNodesAreRefusedNamingBoth() throws Exception {
        Path file = write(service("EchoService", "echo", 8100, AGREEMENT)
                + service("KvService", "kv", 8200, List.of("agree0", "agree1", "agree2", "other3")));
        ConfigException e = assertThrows(ConfigException.class, () -> ReplicasConfigReader.read(file,
                KeyFileCheck.none()));
        assertTrue(e.getMessage().contains("<service name=\"KvService\"> lists agreement nodes {0=agree0, 1=agree1,"
                + " 2=agree2, 3=other3}, but <service name=\"EchoService\"> on line 4 lists {0=agree0, 1=agree1,"
                + " 2=agree2, 3=agree3}"), e.getMessage());
    }

    @Test
    void anAgreementNodeNameUsedOutsideItsAgreementGroupIsStillADuplicate() throws Exception {
        String group = "<group service=\"Other\" endpoint=\"http://other.bftws.group/axis2/services/Other\" f=\"0\">\n"
                + node(0, "agree0", "agree-execute", 8300) + "</group>\n";
        Path file = Files.writeString(dir.resolve("replicas.xml"), "<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + group + "<agreementGroup f=\"1\">\n" + service("EchoService", "echo", 8100, AGREEMENT)
                + "</agreementGroup>\n</replicas>\n");
        ConfigException e = assertThrows(ConfigException.class, () -> ReplicasConfigReader.read(file,
                KeyFileCheck.none()));
        assertTrue(e.getMessage().contains("uses name agree0, which"), e.getMessage());
    }
}
