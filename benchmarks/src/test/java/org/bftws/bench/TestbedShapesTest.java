package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every shape of {@code ./bftws testbed} that README.md and docs/ show, each in a short run of the testbed as the
 * launcher runs it (this module's main class in a JVM of its own, each replica in a JVM of its own), all sharing one
 * key directory. Each run must end {@code echo: N ok, 0 failed} with N the requests asked for and exit status 0, print
 * no warning, and show what its shapes promise: the agreement-only nodes executed nothing (II, III), the nodes checked
 * WS-Security signatures, the PBFT messages went as SOAP, the second service's results and both state checks
 * ({@code --services 2}), the echo group executed what the relays sent it ({@code --tiers 3}) and every node served
 * from AxisServlet in Jetty, the key-value sample's state check and a killed primary replaced, reads answered
 * unordered, tentative executions kept, a Byzantine replica's lie counted, one unreplicated node. The JVMs run the
 * client compiler only ({@link Jvm#SHORT_RUN}): a run of seconds does not repay C2's compilations.
 */
class TestbedShapesTest {

    /** Enough for every shape's evidence (a checkpoint, a crash halfway); each request of a cold JVM is slow. */
    private static final int REQUESTS = 20;
    private static final int WARMUP = 5;
    private static final Pattern FINAL_LINE =
            Pattern.compile("echo: (\\d+) ok, (\\d+) failed, mean [0-9.]+ ms, p99 [0-9.]+ ms, [0-9.]+ req/s");
    private static final Pattern KEPT = Pattern.compile("kept the run directory (\\S+) ");
    /** A run takes one to two minutes on two cores; much longer only on a machine loaded far beyond its cores. */
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(8);

    /** The home of every run, with the keys made before the runs (as the first run would): {@link SharedHome}. */
    private static Path home;

    private static final Map<String, Long> SECONDS = new LinkedHashMap<>();

    @BeforeAll
    static void keys() throws IOException {
        home = SharedHome.withKeys();
    }

    /** A finished run: its output lines and its kept run directory. */
    record Run(List<String> lines, Path dir, String output) {

        /** The counters line a replica answered 'stats' with ({@code "  NAME: delivered=..."}). */
        String stats(String node) {
            return lines.stream().filter(l -> l.startsWith("  " + node + ": ")).findFirst()
                    .orElseThrow(() -> new AssertionError(node + " reported no counters:\n" + output));
        }

        /** Every value of counter {@code name} in a replica's line (one per service it serves). */
        List<Long> counter(String node, String name) {
            List<Long> values = Pattern.compile("(?:^|\\s)" + Pattern.quote(name) + "=(\\d+)").matcher(stats(node))
                    .results().map(r -> Long.parseLong(r.group(1))).toList();
            assertTrue(!values.isEmpty(), node + " reported no " + name + ": " + stats(node));
            return values;
        }

        /** The one line that starts with {@code prefix}. */
        String line(String prefix) {
            return lines.stream().filter(l -> l.startsWith(prefix)).findFirst()
                    .orElseThrow(() -> new AssertionError("no line '" + prefix + "...':\n" + output));
        }

        String file(String relative) throws IOException {
            return Files.readString(dir.resolve(relative));
        }
    }

    /** What a shape's run must show beyond its echo line. */
    @FunctionalInterface
    interface Evidence {
        void check(Run run) throws Exception;
    }

    /** Each executing node executed every warm-up and measured request (at least); each of {@code idle} none. */
    private static void executed(Run run, List<String> executing, List<String> idle) {
        for (String node : executing) {
            for (long d : run.counter(node, "delivered")) {
                assertTrue(d >= WARMUP + REQUESTS, node + " executed " + d + " of " + (WARMUP + REQUESTS) + ": "
                        + run.stats(node));
            }
        }
        for (String node : idle) {
            run.counter(node, "delivered").forEach(d -> assertEquals(0L, d, node + " executed: " + run.stats(node)));
            run.counter(node, "requests-executed").forEach(d -> assertEquals(0L, d, node + ": " + run.stats(node)));
        }
    }

    private static List<String> nodes(String prefix, int n) {
        return java.util.stream.IntStream.range(0, n).mapToObj(i -> prefix + i).toList();
    }

    /**
     * The shapes, two in one run where they are independent (a deployment's layout and how its links or messages are
     * protected), so that the class stays within a few minutes on two cores. {@code --hostile} has its own runs
     * (HostileClientIT) and the plain testbed TestbedEndToEndTest's.
     */
    static Stream<Arguments> shapes() {
        List<Arguments> shapes = new ArrayList<>();
        // Configuration II: replica3 orders without executing; every node checks WS-Security signatures
        shapes.add(shape("--config II --security wssec", run -> {
            executed(run, nodes("replica", 3), List.of("replica3"));
            wsSecurity(run, "II", nodes("replica", 4));
        }));
        // Configuration III: 4 agreement nodes, 3 execution nodes; PBFT messages as SOAP to each control service
        shapes.add(shape("--config III --channel soap", run -> {
            executed(run, nodes("exec", 3), nodes("replica", 4));
            assertTrue(run.file("replicas.xml").contains("replicaChannel=\"soap\""), run.file("replicas.xml"));
            for (String node : nodes("replica", 4)) {
                // no binary frames: the PBFT messages went in SOAP bundles
                assertTrue(!run.stats(node).contains("PBFT-channel-frames-sent="), run.stats(node));
                assertTrue(run.counter(node, "PBFT-bundles-sent").get(0) > 0, run.stats(node));
            }
        }));
        shapes.add(shape("--config III --services 2", run -> {
            Matcher kv = Pattern.compile("kv: (\\d+) ok, (\\d+) failed, .*").matcher(run.line("kv: "));
            assertTrue(kv.matches() && kv.group(1).equals(Integer.toString(REQUESTS)) && kv.group(2).equals("0"),
                    run.line("kv: "));
            assertTrue(run.line("echo state: ").startsWith("echo state: ok: "), run.line("echo state: "));
            assertTrue(run.line("kv state: ").startsWith("kv state: ok: "), run.line("kv state: "));
            List<String> executing = new ArrayList<>(nodes("exec", 3));
            executing.addAll(nodes("kv-exec", 3));
            executed(run, executing, nodes("replica", 4));
            for (String agree : nodes("replica", 4)) {
                assertTrue(run.stats(agree).contains("EchoService: ") && run.stats(agree).contains("| KvService: "),
                        "an agreement node orders both services in one JVM: " + run.stats(agree));
            }
        }));
        // the relays executed the client's requests and the echo group the calls the relays made from inside theirs,
        // every node in AxisServlet in a Jetty of its own
        shapes.add(shape("--tiers 3 --container jetty", run -> {
            List<String> all = new ArrayList<>(nodes("relay", 4));
            all.addAll(nodes("replica", 4));
            executed(run, all, List.of());
            for (String node : all) {
                // a listener that cannot listen by itself: every answer came through AxisServlet in the node's Jetty
                assertTrue(run.file(node + "/repository/axis2.xml")
                        .contains("class=\"org.apache.axis2.transport.http.AxisServletListener\""), node);
            }
        }));
        // the key-value sample's state check, here on the 2f+1 replicas left after the primary was killed halfway;
        // those changed view and executed every request
        shapes.add(shape("--service kv --crash primary", run -> {
            assertTrue(run.line("kv: ").startsWith("kv: ok: "), run.line("kv: "));
            Matcher crashed = Pattern.compile("crashed (replica\\d) \\(the primary, pid \\d+\\) after "
                    + REQUESTS / 2 + " of " + REQUESTS + " measured requests").matcher(run.line("crashed "));
            assertTrue(crashed.matches(), run.line("crashed "));
            assertEquals("  " + crashed.group(1) + ": not running", run.stats(crashed.group(1)));
            List<String> survivors = nodes("replica", 4).stream().filter(n -> !n.equals(crashed.group(1))).toList();
            executed(run, survivors, List.of());
            for (String node : survivors) {
                assertTrue(run.counter(node, "view").get(0) > 0, "no view change: " + run.stats(node));
            }
        }));
        shapes.add(shape("--read-only", run -> {
            Matcher reads = Pattern.compile("reads \\(warm-up included\\): (\\d+) accepted on 2f\\+1 identical "
                    + "replies without ordering, (\\d+) fallen back to ordered requests").matcher(run.line("reads "));
            assertTrue(reads.matches(), run.line("reads "));
            long accepted = Long.parseLong(reads.group(1));
            assertEquals(WARMUP + REQUESTS, accepted + Long.parseLong(reads.group(2)), run.line("reads "));
            assertTrue(accepted > 0, run.line("reads "));
            long unordered = 0;
            for (String node : nodes("replica", 4)) {
                unordered += run.counter(node, "read-only-requests-executed").get(0);
            }
            assertTrue(unordered >= 3 * accepted, "2f+1 replicas executed each read unordered: " + unordered);
        }));
        // a checkpoint every 8 batches: replicas execute tentatively only after their first checkpoint; two clients
        // at once, and the figures README.md shows: latency percentiles and the CPU of every process (sampled
        // twice, so a number, not n/a)
        shapes.add(shape("--tentative", run -> {
            assertTrue(run.file("replicas.xml").contains("tentativeExecution=\"true\""), run.file("replicas.xml"));
            executed(run, nodes("replica", 4), List.of());
            for (String node : nodes("replica", 4)) {
                assertTrue(run.counter(node, "tentative-executions-kept").get(0) > 0, run.stats(node));
            }
            assertTrue(run.line("latency: ").matches("latency: mean [0-9.]+ ms, p50 [0-9.]+ ms, p99 [0-9.]+ ms, "
                    + "max [0-9.]+ ms \\(" + REQUESTS + " samples\\)"), run.line("latency: "));
            assertTrue(run.line("throughput: ").endsWith(", 2 client threads)"), run.line("throughput: "));
            assertTrue(run.line("cpu seconds ").matches("cpu seconds per 1,000 requests: replica0 [0-9.]+, "
                    + "replica1 [0-9.]+, replica2 [0-9.]+, replica3 [0-9.]+, client [0-9.]+"), run.line("cpu seconds "));
        }, "--protocol", "checkpointInterval=8,watermarkWindow=32", "--clients", "2"));
        shapes.add(shape("--byzantine equivocate", run -> {
            assertTrue(run.line("lie: ").startsWith("lie: counted"), run.line("lie: "));
            assertTrue(run.line("states: ").startsWith("states: equal on 3 correct replicas"), run.line("states: "));
            assertTrue(run.counter("replica0", "Byzantine-lies").get(0) > 0, run.stats("replica0"));
        }));
        shapes.add(shape("--unreplicated", run -> {
            assertTrue(run.line("replicas ready").matches("replicas ready after [0-9.]+ s: replica0 \\S+ \\(pid \\d+\\)"),
                    run.line("replicas ready"));
            assertTrue(run.counter("replica0", "delivered").get(0) >= WARMUP + REQUESTS, run.stats("replica0"));
            assertTrue(!run.stats("replica0").contains(" view="), "a BFT replica: " + run.stats("replica0"));
        }));
        return CaseFilter.only(shapes, System.getProperty("shapes"));
    }

    /** Each of {@code nodes} ran as a replica of the {@code wssec} profile (its log says so when it starts). */
    private static void wsSecurity(Run run, String configuration, List<String> nodes) throws IOException {
        for (String node : nodes) {
            assertTrue(run.file(node + ".log").contains("(f=1, configuration " + configuration + ", WSSEC)"),
                    node + ".log");
            assertEquals(List.of(0L), run.counter(node, "security-refusals"), run.stats(node));
        }
    }

    /** A shape: the options as README.md and docs/ show them (the test's name), more options, what it must show. */
    private static Arguments shape(String options, Evidence evidence, String... more) {
        List<String> args = new ArrayList<>(List.of(options.split(" ")));
        args.addAll(List.of(more));
        return Arguments.of(options, args, evidence);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void theShapeAnswersEveryRequestAndShowsWhatItPromises(String shape, List<String> options, Evidence evidence)
            throws Exception {
        List<String> args = new ArrayList<>(options);
        args.addAll(List.of("--requests", Integer.toString(REQUESTS), "--warmup", Integer.toString(WARMUP), "--keep",
                "--home", home.toString()));
        long t0 = System.nanoTime();
        try (Jvm testbed = Jvm.start(Testbed.class, args)) {
            int status = testbed.awaitExit(RUN_TIMEOUT);
            SECONDS.put(shape, (System.nanoTime() - t0) / 1_000_000_000L);
            List<String> out = testbed.lines();
            if (out.isEmpty()) {
                fail("no output, exit status " + status);
            }
            Matcher last = FINAL_LINE.matcher(out.get(out.size() - 1));
            assertTrue(last.matches(), shape + ": last line " + out.get(out.size() - 1) + "\n" + testbed.output());
            assertEquals(Integer.toString(REQUESTS), last.group(1), testbed.output());
            assertEquals("0", last.group(2), testbed.output());
            assertEquals(0, status, testbed.output());
            assertTrue(out.stream().noneMatch(l -> l.startsWith("warning:")), testbed.output());
            Matcher kept = KEPT.matcher(testbed.output());
            assertTrue(kept.find(), testbed.output());
            // the testbed stopped every replica JVM it started
            StartedReplicas.assertNoneAlive(StartedReplicas.pids(testbed.awaitLine(
                    l -> l.startsWith("replicas ready"), Duration.ZERO)));
            Run run = new Run(out, Path.of(kept.group(1)), testbed.output());
            try {
                evidence.check(run);
            } catch (AssertionError | Exception e) {
                throw new AssertionError(shape + ": " + e.getMessage() + "\n" + testbed.output(), e);
            }
        }
    }

    @AfterAll
    static void printTimes() {
        System.out.println("testbed shapes, seconds each: " + SECONDS + ", "
                + SECONDS.values().stream().mapToLong(Long::longValue).sum() + " s in all");
    }
}
