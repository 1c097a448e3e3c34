package org.bftws.axis2.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.client.ServiceClient;
import org.bftws.axis2.TestNodes;
import org.bftws.axis2.monitoring.HttpAdmissionCounters;
import org.bftws.axis2.security.SecurityRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multi-tier over TLS: a client calls the relay group over HTTPS, and each relay replica's nested call reaches the
 * backend group over HTTPS with the relay's party certificate (the backend nodes' HTTPS ports see only the relays);
 * the backend orders each nested request once and refuses nothing.
 */
class NestedCallsOverTlsTest {
    @TempDir
    Path dir;

    @Test
    void nestedCallsFromTheRelayReplicasReachTheBackendGroupOverHttps() throws Exception {
        try (TwoGroups groups = new TwoGroups(dir, -1, null, "", true)) {
            ServiceClient client = groups.client();
            for (int k = 0; k < 3; k++) {
                OMElement reply = TestNodes.call(client, TestNodes.echo("tls" + k));
                assertEquals(List.of("tls" + k), ThreeTierEchoTest.items(reply));
            }
            for (int i = 0; i < 4; i++) {
                HttpAdmissionCounters backend = HttpAdmissionCounters.of(groups.nodes.get(4 + i));
                assertTrue(backend.tlsHandshakes.get() > 0, "backend" + i + " was called over HTTPS: " + backend);
                assertEquals(0, backend.tlsFailed.get(), "backend" + i + ": " + backend);
                assertEquals(0, groups.backend(i).counters().refused.get(), "backend" + i + " refused nothing");
                assertEquals(0, SecurityRuntime.of(groups.nodes.get(i)).tls().orElseThrow().refusals(), "relay" + i);
            }
        }
    }
}
