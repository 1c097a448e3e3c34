package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.apache.axis2.client.ServiceClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new view re-proposes every prepared slot above the stable checkpoint, and each backup prepares each of them
 * again: a prepared certificate the core asks to persist. They arrive in bundles (one per peer), and the journal
 * forces a bundle's records to disk once: a sync per slot (1-10 ms each on the machines measured) was a large part of
 * the failover time (docs/recovery.md).
 */
class NewViewSyncsTest {

    /**
     * Enough slots that once-per-slot forcing (at least SLOTS) and once-per-bundle forcing (a handful, up to 13 seen
     * on a machine at load 20, where bundles arrive split and the view change retransmits) stay far apart.
     */
    private static final int SLOTS = 40;

    @TempDir
    Path dir;

    @Test
    void aNewViewsReproposedSlotsAreForcedToDiskOncePerBundleNotOncePerSlot() throws Exception {
        try (BftTestGroup g = BftTestGroup.start(dir, "mac", BftTestGroup.protocol(100, "1s"), -1, true)) {
            ServiceClient client = g.client();
            for (int i = 1; i <= SLOTS; i++) {
                BftTestGroup.call(client, BftTestGroup.append("v" + i));
            }
            ConfigurationIGroupTest.waitForCount(g, 3, SLOTS);
            long[] before = new long[4];
            for (int i = 1; i < 4; i++) {
                before[i] = syncs(g, i);
            }
            g.stop(0); // the primary of view 0: the others re-propose the log above checkpoint 0 in view 1
            BftTestGroup.call(client, BftTestGroup.append("after"));
            for (int i = 1; i < 4; i++) {
                ConfigurationIGroupTest.waitForCount(g, i, SLOTS + 1);
                assertEquals(1, g.node(i).replica().manager().view(), "replica " + i + " is in view 1");
                long during = syncs(g, i) - before[i];
                assertTrue(during < SLOTS / 2, "replica " + i + " forced the journal " + during + " times for a new "
                        + "view re-proposing " + SLOTS + " slots and one new request");
            }
        }
    }

    private static long syncs(BftTestGroup g, int i) {
        return g.node(i).replica().counters().getOrDefault("journal syncs", 0L);
    }
}
