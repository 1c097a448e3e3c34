package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/** The replica JVMs a testbed run says it started ({@code replicas ready after ... (pid N), ...}), and their end. */
final class StartedReplicas {

    private static final Pattern PID = Pattern.compile("\\(pid (\\d+)\\)");

    private StartedReplicas() {
    }

    /** The pids the testbed's {@code replicas ready} line names. */
    static List<Long> pids(String readyLine) {
        return PID.matcher(readyLine).results().map(r -> Long.parseLong(r.group(1))).toList();
    }

    /** Every one of {@code pids} has ended, or ends within 15 s (a JVM's exit takes a moment after its stop). */
    static void assertNoneAlive(List<Long> pids) throws InterruptedException {
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
