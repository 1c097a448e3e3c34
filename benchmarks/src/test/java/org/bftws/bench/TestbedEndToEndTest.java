package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The testbed as the launcher runs it ({@code ./bftws testbed} is this main class on this classpath): real replica
 * JVMs on loopback, the echo client through Axis2 and the bftws module, keys made by keygen. The JVMs run the client
 * compiler only ({@link Jvm#SHORT_RUN}); the testbed's other shapes, {@code --container jetty} among them, are
 * TestbedShapesTest's.
 */
class TestbedEndToEndTest {

    private static final Pattern FINAL_LINE =
            Pattern.compile("echo: (\\d+) ok, (\\d+) failed, mean [0-9.]+ ms, p99 [0-9.]+ ms, [0-9.]+ req/s");
    private static final Pattern PID = Pattern.compile("\\(pid (\\d+)\\)");

    @Test
    void fourReplicaJvmsAnswerEveryRequestOfTwoClientsAndTheTestbedEndsWithZeroFailed() throws Exception {
        try (Jvm testbed = Jvm.start(Testbed.class, List.of("--requests", "100", "--clients", "2",
                "--warmup", "20", "--security", "mac", "--home", SharedHome.withKeys().toString()))) {
            int status = testbed.awaitExit(Duration.ofSeconds(180));
            List<String> out = testbed.lines();
            String last = out.get(out.size() - 1);
            Matcher m = FINAL_LINE.matcher(last);
            assertTrue(m.matches(), "last line: " + last + "\n" + testbed.output());
            assertEquals("100", m.group(1), testbed.output());
            assertEquals("0", m.group(2), testbed.output());
            assertEquals(0, status, testbed.output());
            // the figures: latency percentiles, and CPU of every process (sampled twice, so a number, not n/a)
            assertTrue(out.stream().anyMatch(l -> l.matches(
                    "latency: mean [0-9.]+ ms, p50 [0-9.]+ ms, p99 [0-9.]+ ms, max [0-9.]+ ms \\(100 samples\\)")),
                    testbed.output());
            assertTrue(out.stream().anyMatch(l -> l.matches("cpu seconds per 1,000 requests: replica0 [0-9.]+, "
                    + "replica1 [0-9.]+, replica2 [0-9.]+, replica3 [0-9.]+, client [0-9.]+")), testbed.output());
            // all four replica JVMs ran to the end and reported what they executed
            for (int i = 0; i < 4; i++) {
                String name = "replica" + i;
                assertTrue(out.stream().anyMatch(l -> l.trim().startsWith(name + ": delivered=")),
                        name + " did not report its counters:\n" + testbed.output());
            }
            assertNoneAlive(pids(testbed.awaitLine(l -> l.startsWith("replicas ready"), Duration.ZERO)));
        }
    }

    @Test
    void aTestbedStoppedBySigtermStopsTheReplicasItStarted() throws Exception {
        try (Jvm testbed = Jvm.start(Testbed.class, List.of("--requests", "10000000", "--security", "none",
                "--home", SharedHome.withKeys().toString()))) {
            List<Long> pids = pids(testbed.awaitLine(l -> l.startsWith("replicas ready"), Duration.ofSeconds(120)));
            assertEquals(4, pids.size(), testbed.output());
            testbed.terminate();
            int status = testbed.awaitExit(Duration.ofSeconds(60));
            assertTrue(status != 0, "exit status " + status);
            assertTrue(testbed.output().contains("testbed: interrupted; stopping the replicas"),
                    "exit status " + status + ":\n" + testbed.output());
            assertNoneAlive(pids);
        }
    }

    private static List<Long> pids(String readyLine) {
        return PID.matcher(readyLine).results().map(r -> Long.parseLong(r.group(1))).toList();
    }

    private static void assertNoneAlive(List<Long> pids) throws InterruptedException {
        assertFalse(pids.isEmpty());
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        for (long pid : pids) {
            while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "replica pid " + pid
                    + " is still running");
        }
    }
}
