package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The testbed as the launcher runs it ({@code ./bftws testbed} is this main class on this classpath), stopped from
 * outside: it stops the replica JVMs it started. Its runs to the end, every shape of them with its replica JVMs
 * gone after it, are TestbedShapesTest's.
 */
class TestbedEndToEndTest {

    @Test
    void aTestbedStoppedBySigtermStopsTheReplicasItStarted() throws Exception {
        try (Jvm testbed = Jvm.start(Testbed.class, List.of("--requests", "10000000", "--security", "none",
                "--home", SharedHome.withKeys().toString()))) {
            List<Long> pids = StartedReplicas.pids(testbed.awaitLine(l -> l.startsWith("replicas ready"),
                    Duration.ofSeconds(120)));
            assertEquals(4, pids.size(), testbed.output());
            testbed.terminate();
            int status = testbed.awaitExit(Duration.ofSeconds(60));
            assertTrue(status != 0, "exit status " + status);
            assertTrue(testbed.output().contains("testbed: interrupted; stopping the replicas"),
                    "exit status " + status + ":\n" + testbed.output());
            StartedReplicas.assertNoneAlive(pids);
        }
    }
}
