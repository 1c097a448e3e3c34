package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 34: a client whose request authenticators fail must neither force a view change nor leave the group unable
 * to serve. Each case is {@code ./bftws testbed --hostile MODE} as the launcher runs it: four {@code mac} replica
 * JVMs, four honest echo client threads calling in a loop (500 warm-up calls, then 51 s), and from 15 s to 45 s of
 * those a hostile client party (its own keys, 16 threads, the fast pacing: clientTimeout 300 ms, one retransmission after 100 ms) whose requests carry
 * authenticators valid nowhere, or valid at the primary only. The run's own check must pass: no replica's view at
 * the end differs from its view when the attack started, and an honest call was answered within 5 s after the
 * hostile client's JVM ended. The attack is no shorter, and comes no sooner, because before the fix of issue 34 a
 * loaded 2-core machine showed the views change 6 to 25 s into such an attack on a group that had served 15-20 s at
 * full speed (the replicas' timers stall with them), while attacks of 20 to 30 s that started 3 s into the run mostly
 * ended with the group still in view 0. About 90 s per case; the windows are printed to the test's output.
 */
class HostileClientTest {

    /** One key directory for both cases: keygen runs once. */
    @TempDir
    static Path home;

    @ParameterizedTest(name = "--hostile {0}")
    @ValueSource(strings = {"invalid", "primary-only"})
    void aClientWithoutValidMacsCannotForceAViewChangeNorStopTheGroupServing(String mode) throws Exception {
        try (Jvm testbed = Jvm.start(Testbed.class, List.of("--security", "mac", "--clients", "4", "--warmup", "500",
                "--hostile", mode, "--hostile-threads", "16", "--hostile-start", "15", "--hostile-duration", "30",
                "--hostile-after", "6", "--home", home.toString()))) {
            testbed.awaitExit(Duration.ofSeconds(150));
            List<String> out = testbed.lines();
            out.stream().filter(l -> l.startsWith("  ") && !l.trim().startsWith("replica") || l.startsWith("hostile"))
                    .forEach(l -> System.out.println("--hostile " + mode + ": " + l));
            Optional<String> check = out.stream().filter(l -> l.startsWith("hostile check: ")).findFirst();
            if (check.isEmpty()) {
                fail("the run printed no hostile check; output:\n" + testbed.output());
            }
            assertTrue(check.get().startsWith("hostile check: ok"), "--hostile " + mode + ": " + check.get()
                    + "\n" + String.join("\n", out.stream().filter(l -> l.startsWith("  ") || l.startsWith("hostile"))
                    .toList()));
        }
    }
}
