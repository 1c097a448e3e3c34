package org.bftws.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.bftws.config.Configuration;
import org.bftws.config.GroupConfig;
import org.bftws.config.NodeConfig;
import org.bftws.config.NodeRole;
import org.bftws.config.ProtocolConfig;
import org.bftws.config.SecurityConfig;
import org.bftws.core.Membership;
import org.junit.jupiter.api.Test;

/** Core node ids follow core.Membership: agreement nodes first by their replicas.xml id, execution nodes after. */
class NodeDirectoryTest {

    private static NodeConfig node(int id, String name, NodeRole role) {
        URI uri = URI.create("http://127.0.0.1:" + (9000 + name.hashCode() % 500) + "/" + name);
        return new NodeConfig(id, name, uri, URI.create(uri + "/control"), role, null);
    }

    @Test
    void configurationThreeExecutionNodesFollowTheAgreementNodesWhateverTheFileOrder() {
        List<NodeConfig> nodes = new ArrayList<>();
        nodes.add(node(1, "exec1", NodeRole.EXECUTE));
        for (int i = 3; i >= 0; i--) {
            nodes.add(node(i, "agree" + i, NodeRole.AGREE));
        }
        nodes.add(node(0, "exec0", NodeRole.EXECUTE));
        nodes.add(node(2, "exec2", NodeRole.EXECUTE));
        GroupConfig group = new GroupConfig("Svc", URI.create("http://g/Svc"), 1, Configuration.III, true,
                SecurityConfig.none(), ProtocolConfig.defaults(), nodes, null);
        NodeDirectory d = NodeDirectory.of(group);
        Membership membership = Membership.configurationIII(1);
        assertEquals(membership.size(), d.size());
        for (int i = 0; i < 4; i++) {
            assertEquals("agree" + i, d.name(i));
        }
        for (int j = 0; j < 3; j++) {
            assertEquals("exec" + j, d.name(membership.agreementCount() + j));
            assertEquals(OptionalInt.of(4 + j), d.id("EXEC" + j), "names match ignoring case, as replicas.xml's do");
        }
        assertFalse(d.id("client1").isPresent());
        assertThrows(IllegalArgumentException.class, () -> d.name(7));
        assertEquals("node 5 (exec1)", d.describe(5));
    }
}
