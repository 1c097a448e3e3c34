package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.client.ServiceClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.bftws.state.Journal;

/** Replicas with a data directory: stopping and starting the whole group loses nothing accepted. */
class DurabilityTest {

    @TempDir
    Path dir;

    @Test
    void allFourReplicasStoppedAndStartedAgainKeepEverythingAcceptedAndGoOn() throws Exception {
        try (BftTestGroup g = BftTestGroup.start(dir, "mac", BftTestGroup.protocol(4, "1s"), -1, true)) {
            ServiceClient client = g.client();
            for (int i = 1; i <= 10; i++) {
                BftTestGroup.call(client, BftTestGroup.append("v" + i));
            }
            String before = ConfigurationIGroupTest.waitForCount(g, 0, 10);
            for (int i = 0; i < 4; i++) {
                assertTrue(Files.size(dir.resolve("data").resolve("replica" + i).resolve(Journal.FILE)) > 0);
                g.stop(i);
            }
            for (int i = 0; i < 4; i++) {
                g.restart(i);
            }
            for (int i = 0; i < 4; i++) {
                assertEquals(before, ConfigurationIGroupTest.waitForCount(g, i, 10), "replica " + i + " recovered");
            }
            ServiceClient after = g.client();
            OMElement reply = BftTestGroup.call(after, BftTestGroup.append("v11"));
            assertEquals("11", BftTestGroup.child(reply, "count"));
            String s = ConfigurationIGroupTest.waitForCount(g, 0, 11);
            for (int i = 1; i < 4; i++) {
                assertEquals(s, ConfigurationIGroupTest.waitForCount(g, i, 11));
            }
        }
    }
}
