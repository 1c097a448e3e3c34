package org.bftws.bench.nemesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * Namespaces on a bridge. They need root with its capabilities and the ip command: where these are missing the
 * test fails under CI and is skipped with the reason printed elsewhere ({@link Prerequisites}).
 */
class NetworkTest {

    private static String routes(Network n, int host) throws IOException, InterruptedException {
        List<String> c = new java.util.ArrayList<>(n.prefix(host));
        c.addAll(List.of("ip", "route", "show"));
        return Network.run(c);
    }

    @Test
    void aPartitionCutsExactlyItsPairsBothWaysAndEverythingIsRemovedAfterwards()
            throws IOException, InterruptedException {
        Prerequisites.require("network namespaces", Network.refusal());
        try (Network n = Network.create(3)) {
            String namespaces = Network.run(List.of("ip", "netns", "list"));
            for (int i = 0; i < 3; i++) {
                assertTrue(namespaces.contains(n.namespace(i)), namespaces);
            }
            assertTrue(n.address(0).endsWith(".1") && n.address(2).endsWith(".3"), n.address(0));
            n.partition(Set.of(new Network.Cut(1, 0)));
            assertTrue(routes(n, 0).contains("blackhole " + n.address(1)), routes(n, 0));
            assertTrue(routes(n, 1).contains("blackhole " + n.address(0)), routes(n, 1));
            assertFalse(routes(n, 2).contains("blackhole"), routes(n, 2));
            n.partition(Set.of(new Network.Cut(2, 1)));
            assertFalse(routes(n, 0).contains("blackhole"), "healed what is no longer wanted: " + routes(n, 0));
            assertTrue(routes(n, 2).contains("blackhole " + n.address(1)), routes(n, 2));
            n.heal();
            for (int i = 0; i < 3; i++) {
                assertFalse(routes(n, i).contains("blackhole"), routes(n, i));
            }
            assertThrows(IllegalArgumentException.class, () -> n.partition(Set.of(new Network.Cut(0, 3))));
        }
        assertEquals(List.of(), Network.of(ProcessHandle.current().pid()));
    }

    @Test
    void aCutNeedsTwoHosts() {
        assertThrows(IllegalArgumentException.class, () -> new Network.Cut(1, 1));
        assertEquals(new Network.Cut(0, 2), new Network.Cut(2, 0));
    }
}
