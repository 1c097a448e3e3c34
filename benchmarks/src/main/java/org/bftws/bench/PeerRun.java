package org.bftws.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs BFT-SMaRt's microbenchmark through its runner script ({@code run.py}: builds BFT-SMaRt on first use, starts
 * 4 replicas on ports 11000-11031, runs C closed-loop clients, stops the replicas, prints one {@link PeerLine}) and
 * turns what happened into a {@link PeerResult}. Whatever goes wrong (no script, no Python, ports taken, a failed or
 * hung run, a line that is not a result) becomes a skipped row with the reason: the peer is a reference, and the
 * suite's own points must not be lost to it.
 */
final class PeerRun {

    /** The ports run.py's replicas listen on: replica i on 11000 + 10 i (clients) and the next one (replicas). */
    private static final List<Integer> PORTS = List.of(11000, 11001, 11010, 11011, 11020, 11021, 11030, 11031);
    /** Another run of the peer on this shared machine holds the ports for a few minutes at most. */
    private static final Duration PORTS_WAIT = Duration.ofMinutes(4);
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final Path script;
    private final int ops;
    private final int warmOps;
    private final Duration timeout;
    private final PrintStream out;
    /** The run.py process now running: the suite's shutdown hook stops it and what it started. */
    private volatile Process running;

    PeerRun(Path script, int ops, int warmOps, Duration timeout, PrintStream out) {
        this.script = script;
        this.ops = ops;
        this.warmOps = warmOps;
        this.timeout = timeout;
        this.out = out;
    }

    static PeerRun of(BenchOptions o, PrintStream out) {
        return new PeerRun(o.peer(), o.peerOps(), o.peerWarmOps(), o.peerTimeout(), out);
    }

    /**
     * Bytes of each of the peer's requests: the serialized {@code <e:echo>} element of the headline's request
     * ({@value BenchPlan#HEADLINE_SIZE} items, a three-digit request tag as most of a point's requests have), which is
     * what the application hands to BFT-WS. The SOAP envelope and its WS-Addressing, WS-RM and authenticator headers
     * around it are BFT-WS's own encoding, as BFT-SMaRt's message headers around its payload are BFT-SMaRt's.
     */
    static int requestBytes() {
        return EchoMessages.request("m100", BenchPlan.HEADLINE_SIZE).toString().getBytes(StandardCharsets.UTF_8)
                .length;
    }

    /** How the peer is run, for the console and the page's method section. */
    String describe(int bytes) {
        return script == null ? "not run (--no-peer)" : String.format(Locale.ROOT,
                "python3 %s --clients C --ops %d --warm-ops %d --size %d", script, ops, warmOps, bytes);
    }

    /** One run at {@code clients}, retried once when it fails (the first build on a machine can, see {@link #env}). */
    PeerResult run(int clients, int bytes, Progress progress) throws InterruptedException {
        String unavailable = unavailable();
        if (unavailable != null) {
            return skipped(clients, bytes, unavailable, progress);
        }
        String first = null;
        for (int attempt = 1; attempt <= 2; attempt++) {
            if (!waitForFreePorts(progress)) {
                return skipped(clients, bytes, "ports " + PORTS.get(0) + "-" + PORTS.get(PORTS.size() - 1)
                        + " still in use after " + PORTS_WAIT.toMinutes() + " min (another BFT-SMaRt run on this"
                        + " machine?)" + (first == null ? "" : "; first attempt: " + first), progress);
            }
            Attempt a = attempt(clients, bytes);
            if (a.line().isPresent()) {
                PeerLine line = a.line().get();
                if (line.clients() != clients || line.requestBytes() != bytes) {
                    return skipped(clients, bytes, "run.py measured " + line.clients() + " clients with "
                            + line.requestBytes() + "-byte requests, not the " + clients + " and " + bytes
                            + " asked for", progress);
                }
                PeerResult r = PeerResult.measured(line, UTC.format(Instant.now()), Load.now(),
                        first == null ? "" : "second attempt; the first: " + first);
                out.printf(Locale.ROOT, "%s     %s%n", progress.clock(), line.describe());
                return r;
            }
            if (a.timedOut() || attempt == 2) {
                return skipped(clients, bytes, (first == null ? "" : "twice; first: " + first + "; then: ")
                        + a.failure(), progress);
            }
            first = a.failure();
            out.printf(Locale.ROOT, "%s     failed (%s); once more%n", progress.clock(), first);
        }
        throw new AssertionError("two attempts return");
    }

    /** Why the peer cannot run at all, or null. */
    private String unavailable() {
        if (script == null) {
            return "not run: --no-peer";
        }
        if (!Files.isRegularFile(script)) {
            return "no BFT-SMaRt runner at " + script + " (--peer PATH names another)";
        }
        return null;
    }

    private PeerResult skipped(int clients, int bytes, String why, Progress progress) {
        out.printf(Locale.ROOT, "%s     BFT-SMaRt skipped: %s%n", progress.clock(), why);
        return PeerResult.skipped(clients, bytes, why);
    }

    /** What one run of run.py printed, and whether it had to be stopped. */
    private record Attempt(List<String> output, boolean timedOut, String error) {

        Optional<PeerLine> line() {
            return PeerLine.find(output);
        }

        String failure() {
            if (error != null) {
                return error;
            }
            return (timedOut ? "stopped after the timeout; " : "") + "run.py: " + PeerLine.failure(output);
        }
    }

    private Attempt attempt(int clients, int bytes) throws InterruptedException {
        List<String> command = List.of("python3", script.toString(), "--clients", Integer.toString(clients),
                "--ops", Integer.toString(ops), "--size", Integer.toString(bytes), "--warm-ops",
                Integer.toString(warmOps));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        env(pb.environment());
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return new Attempt(List.of(), false, "cannot start python3: " + e.getMessage());
        }
        running = p;
        List<String> output = Collections.synchronizedList(new ArrayList<>());
        Thread reader = new Thread(() -> read(p, output), "bftsmart-output");
        reader.setDaemon(true);
        reader.start();
        try {
            boolean ended = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!ended) {
                stop();
            }
            reader.join(10_000);
            return new Attempt(List.copyOf(output), !ended, null);
        } finally {
            running = null;
        }
    }

    /**
     * run.py reads the folder build.sh prints as its last line. Debian's Maven 3.8.7 writes two colour resets
     * ({@code ESC[0m ESC[0m}) when it ends, even with {@code -B -q}, with {@code -Dstyle.color=never} or with
     * {@code TERM=dumb}: on a machine where BFT-SMaRt is not built yet they land in front of that folder and run.py
     * fails (FileNotFoundError). Jansi's {@code -Djansi.noreset=true} stops them (checked with a fresh
     * BFTSMART_HOME); the other two settings are for Maven versions that honour them, and the retry covers the rest
     * (built, build.sh prints the folder without running Maven).
     */
    static void env(Map<String, String> env) {
        String mavenOpts = env.getOrDefault("MAVEN_OPTS", "");
        env.put("MAVEN_OPTS", (mavenOpts + " -Dstyle.color=never -Djansi.noreset=true").strip());
        env.put("TERM", "dumb");
    }

    private static void read(Process p, List<String> output) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                output.add(line);
            }
        } catch (IOException e) {
            output.add("reading run.py's output: " + e.getMessage());
        }
    }

    /**
     * Stops the running run.py and what it started (its replica and client JVMs): killed alone, Python would not
     * run its own clean-up, and its 4 replicas would keep the ports.
     */
    void stop() {
        Process p = running;
        if (p == null) {
            return;
        }
        List<ProcessHandle> started = p.descendants().toList();
        p.destroy();
        started.forEach(ProcessHandle::destroy);
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        started.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    /** Waits until no process listens on the peer's ports; false after {@link #PORTS_WAIT}. */
    private boolean waitForFreePorts(Progress progress) throws InterruptedException {
        long deadline = System.nanoTime() + PORTS_WAIT.toNanos();
        boolean said = false;
        while (portInUse()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            if (!said) {
                out.printf(Locale.ROOT, "%s     ports %d-%d in use (another BFT-SMaRt run?); waiting up to %d min%n",
                        progress.clock(), PORTS.get(0), PORTS.get(PORTS.size() - 1), PORTS_WAIT.toMinutes());
                said = true;
            }
            Thread.sleep(5_000);
        }
        return true;
    }

    private static boolean portInUse() {
        for (int port : PORTS) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return true;
            } catch (IOException free) {
                // nothing listens there
            }
        }
        return false;
    }
}
