package org.bftws.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import org.bftws.bench.hostile.HostileClient;

/**
 * {@code ./bftws testbed --hostile MODE}: while the testbed's echo client calls in a loop for the attack's timeline,
 * a hostile client ({@link HostileClient}, the second client party {@value TestbedDeployment#HOSTILE_CLIENT} with
 * keys of its own, in a JVM of its own) attacks the group from {@code start} for {@code duration} seconds of the
 * measured phase; its JVM ends when the attack does. Every {@value #WINDOW_SECONDS} s it prints honest calls per
 * second, the requests each replica executed per second, each replica's view (both from the replicas' {@code stats}
 * answers), the replicas' CPU (their processes' CPU time, which the JDK reads from /proc/PID/stat on Linux, in % of
 * one core, summed) and the hostile calls sent per second; then a summary (honest calls per second before, during and
 * after the attack, views) and the check: no replica changed its view, and an honest call was answered within
 * {@link HostileOptions#RECOVERY_LIMIT} after the attack stopped. Only the processes it started are ever signalled.
 */
final class HostileRun implements AutoCloseable {

    static final int WINDOW_SECONDS = 5;
    /** How long the honest calls still in flight at the end of the timeline get before they count as failed. */
    static final Duration SETTLE = Duration.ofSeconds(5);
    private static final Duration STATS_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final String HEAP = "256m";

    private final HostileOptions options;
    private final TestbedDeployment deployment;
    private final List<ReplicaProcess> replicas;
    private final Path runDir;
    private final PrintStream out;
    private final ExecutorService questions = Executors.newCachedThreadPool(r -> daemon(r, "hostile-stats"));
    private final ScheduledExecutorService timeline =
            Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "hostile-timeline"));
    /** When each honest call that got the right answer ended (nanoTime), in order of arrival. */
    private final List<Long> honestAnswers = new ArrayList<>();
    private final AtomicLong hostileSent = new AtomicLong();
    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile String hostileTotals = "";
    private Process process;
    private OutputStream stdin;
    private volatile long t0;
    private volatile long attackStarted;
    private volatile long attackStopped;
    private volatile long measuredEnd;
    private volatile List<Optional<Map<String, String>>> viewsAtStart = List.of();
    /** The readings at the start of the current window. */
    private volatile Sample last;

    /** One window's readings: when, honest answers so far, per replica its stats fields (empty: no answer), CPU. */
    private record Sample(long nanos, long honest, List<Optional<Map<String, String>>> stats, long cpuNanos,
                          long hostileSent) {
    }

    HostileRun(HostileOptions options, TestbedDeployment deployment, List<ReplicaProcess> replicas, Path runDir,
               PrintStream out) {
        this.options = options;
        this.deployment = deployment;
        this.replicas = List.copyOf(replicas);
        this.runDir = runDir;
        this.out = out;
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** Starts the hostile client's JVM, which sets itself up (Axis2, keys) while the honest client warms up. */
    void launch() throws IOException {
        Path conf = deployment.writeClientCopy(runDir.resolve("hostile-replicas.xml"), options.protocolAttributes());
        String primary = deployment.nodes().stream().filter(n -> n.role().orders() && n.id() == 0).findFirst()
                .orElseThrow().name();
        // the replicas' service endpoints as the run's replicas.xml gives them (HTTPS with <tls>)
        String targets = org.bftws.config.ReplicasConfigReader.read(conf, org.bftws.config.KeyFileCheck.none())
                .groupByService(TestbedDeployment.SERVICE).orElseThrow().nodes().stream()
                .map(n -> n.serviceEndpoint().toString()).collect(Collectors.joining(","));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx" + HEAP, "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
                HostileClient.class.getName(), "--mode", options.mode().label(), "--threads",
                Integer.toString(options.threads()), "--rate", Double.toString(options.rate()), "--size", "10",
                "--timeout-ms", Long.toString(options.timeout().toMillis()), "--conf", conf.toString(), "--party",
                TestbedDeployment.HOSTILE_CLIENT, "--repository", runDir.resolve("hostile").toString(), "--endpoint",
                deployment.clientEndpoint(), "--primary", primary, "--targets", targets));
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
        stdin = process.getOutputStream();
        Path log = runDir.resolve("hostile.log");
        Thread pump = daemon(() -> pump(log), "output-hostile");
        pump.start();
        out.println(options.describe());
        out.println("hostile client: pid " + process.pid() + ", log " + log);
    }

    private void pump(Path log) {
        try {
            ChildOutput.copy(process, log, line -> {
                if (line.startsWith("ready hostile")) {
                    ready.countDown();
                } else if (line.startsWith("hostile sent=")) {
                    hostileTotals = line.substring("hostile ".length());
                    hostileSent.set(Long.parseLong(ReplicaGroup.fields(line).getOrDefault("sent", "0")));
                }
            });
        } catch (IOException | RuntimeException e) {
            // the process ended; its log holds what it printed
        }
    }

    /** The honest client's measured phase begins: the timeline starts now. */
    void measuring() {
        t0 = System.nanoTime();
        out.printf(Locale.ROOT, "hostile run: %d s windows from the start of the measured phase; attack from %d s to"
                + " %d s, the echo client calls until %d s%n", WINDOW_SECONDS, options.start().toSeconds(),
                options.start().plus(options.duration()).toSeconds(), options.total().toSeconds());
        out.println(header());
        // on the timeline's thread: this one is the client's, whose measured requests wait for it to return
        timeline.execute(() -> last = sample());
        timeline.scheduleAtFixedRate(this::window, WINDOW_SECONDS, WINDOW_SECONDS, TimeUnit.SECONDS);
        timeline.schedule(this::startAttack, options.start().toMillis(), TimeUnit.MILLISECONDS);
    }

    private void startAttack() {
        try {
            if (!ready.await(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || !process.isAlive()) {
                out.println("hostile client: not ready (see hostile.log); no attack");
                return;
            }
            viewsAtStart = stats();
            send("start");
            attackStarted = System.nanoTime();
            timeline.schedule(this::stopAttack, options.duration().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void stopAttack() {
        try {
            send("stop");
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.toHandle().destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        attackStopped = System.nanoTime();
    }

    private void send(String command) {
        try {
            stdin.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            // it has ended already
        }
    }

    /** An honest measured call ended at {@code endNanos}; counted when it got the right answer. */
    void answered(long endNanos, boolean ok) {
        if (ok) {
            synchronized (honestAnswers) {
                honestAnswers.add(endNanos);
            }
        }
    }

    /** The honest client's measured phase ended. */
    void measured() {
        measuredEnd = System.nanoTime();
    }

    private long honestCount() {
        synchronized (honestAnswers) {
            return honestAnswers.size();
        }
    }

    private Sample sample() {
        List<Optional<Map<String, String>>> stats = stats();
        long cpu = 0;
        for (ReplicaProcess r : replicas) {
            cpu += r.cpu().map(Duration::toNanos).orElse(0L);
        }
        return new Sample(System.nanoTime(), honestCount(), stats, cpu, hostileSent.get());
    }

    /** Every replica's stats fields, asked at once; empty for one that did not answer within 2 s. */
    private List<Optional<Map<String, String>>> stats() {
        List<CompletableFuture<Optional<Map<String, String>>>> asked = new ArrayList<>();
        for (ReplicaProcess r : replicas) {
            asked.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return r.stats(STATS_TIMEOUT).map(ReplicaGroup::fields);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Optional.<Map<String, String>>empty();
                }
            }, questions));
        }
        return asked.stream().map(CompletableFuture::join).toList();
    }

    private String header() {
        String names = replicas.stream().map(ReplicaProcess::name).collect(Collectors.joining(" "));
        return String.format(Locale.ROOT, "  %-11s %-7s %9s  %-31s %-9s %6s  %s", "window", "phase", "honest/s",
                "executed/s (" + names.replace("replica", "") + ")", "views", "cpu %", "hostile sent/s");
    }

    private void window() {
        try {
            Sample now = sample();
            Sample before = last;
            last = now;
            out.println(row(before, now));
        } catch (RuntimeException e) {
            out.println("hostile run: a window's readings failed: " + e);
        }
    }

    private String row(Sample from, Sample to) {
        double seconds = (to.nanos() - from.nanos()) / 1e9;
        long a = Math.round((from.nanos() - t0) / 1e9);
        long b = Math.round((to.nanos() - t0) / 1e9);
        List<String> executed = new ArrayList<>();
        List<String> views = new ArrayList<>();
        for (int i = 0; i < replicas.size(); i++) {
            Optional<Map<String, String>> x = from.stats().get(i);
            Optional<Map<String, String>> y = to.stats().get(i);
            executed.add(x.isPresent() && y.isPresent() ? String.format(Locale.ROOT, "%.1f",
                    (delivered(y.get()) - delivered(x.get())) / seconds) : "?");
            views.add(y.map(f -> f.getOrDefault("view", "?")).orElse("?"));
        }
        return String.format(Locale.ROOT, "  %-11s %-7s %9.1f  %-31s %-9s %6.0f  %.1f", a + "-" + b + " s",
                phase(a, b), (to.honest() - from.honest()) / seconds, String.join(" ", executed),
                String.join("/", views), (to.cpuNanos() - from.cpuNanos()) / 1e9 / seconds * 100,
                (to.hostileSent() - from.hostileSent()) / seconds);
    }

    private String phase(long a, long b) {
        long start = options.start().toSeconds();
        long stop = start + options.duration().toSeconds();
        return b <= start ? "before" : a >= stop ? "after" : a >= start && b <= stop ? "attack" : "mixed";
    }

    private static long delivered(Map<String, String> stats) {
        try {
            return Long.parseLong(stats.getOrDefault("delivered", "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * After the honest client ended: the last window, the summary and the check; true when the check passed (no
     * view change, an honest answer within {@link HostileOptions#RECOVERY_LIMIT} after the attack stopped).
     */
    boolean report() throws InterruptedException {
        timeline.shutdownNow();
        timeline.awaitTermination(15, TimeUnit.SECONDS);
        if (process != null && process.isAlive()) {
            stopAttack(); // the measured phase ended before the attack did
        }
        long end = measuredEnd != 0 ? measuredEnd : System.nanoTime();
        Sample now = sample();
        if (last != null && now.nanos() - last.nanos() > 1_000_000_000L) {
            out.println(row(last, now));
        }
        if (attackStarted == 0) {
            out.println("hostile check: FAILED: the attack never started (hostile.log in the run directory)");
            return false;
        }
        long stopped = attackStopped != 0 ? attackStopped : end;
        String viewsBefore = views(viewsAtStart);
        String viewsAfter = views(now.stats());
        out.printf(Locale.ROOT, "hostile summary: honest calls/s before %.1f / during %.1f / after %.1f; views at the "
                        + "attack's start %s, after %s; hostile client: %s%n", rate(t0, attackStarted),
                rate(attackStarted, stopped), rate(stopped, end), viewsBefore, viewsAfter,
                hostileTotals.isEmpty() ? "no totals" : hostileTotals);
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < replicas.size(); i++) {
            String v0 = viewsAtStart.size() > i ? viewsAtStart.get(i).map(f -> f.get("view")).orElse(null) : null;
            String v1 = now.stats().get(i).map(f -> f.get("view")).orElse(null);
            if (v0 == null || v1 == null) {
                problems.add(replicas.get(i).name() + " did not say its view " + (v0 == null ? "when the attack started"
                        : "after the run"));
            } else if (!v0.equals(v1)) {
                problems.add(replicas.get(i).name() + " changed its view from " + v0 + " to " + v1);
            }
        }
        Optional<Long> first = firstAnswerAfter(stopped);
        double afterSeconds = (end - stopped) / 1e9;
        if (first.isEmpty()) {
            problems.add(String.format(Locale.ROOT, "no honest call was answered in the %.1f s after the attack "
                    + "stopped", afterSeconds));
        } else if (first.get() - stopped > HostileOptions.RECOVERY_LIMIT.toNanos()) {
            problems.add(String.format(Locale.ROOT, "the first honest call after the attack was answered only %.1f s"
                    + " after it stopped (limit %d s)", (first.get() - stopped) / 1e9,
                    HostileOptions.RECOVERY_LIMIT.toSeconds()));
        }
        String recovery = first.map(f -> String.format(Locale.ROOT, "first honest answer %.2f s after the attack "
                + "stopped", (f - stopped) / 1e9)).orElse("no honest answer after the attack stopped");
        if (problems.isEmpty()) {
            out.println("hostile check: ok: no replica changed its view (" + viewsAfter + "), " + recovery);
            return true;
        }
        out.println("hostile check: FAILED: " + String.join("; ", problems) + " (" + recovery + ")");
        return false;
    }

    private Optional<Long> firstAnswerAfter(long stopped) {
        synchronized (honestAnswers) {
            return honestAnswers.stream().filter(e -> e - stopped >= 0).min(Long::compare);
        }
    }

    /** Honest answers per second between two instants (nanoTime). */
    private double rate(long from, long to) {
        if (to - from <= 0) {
            return 0;
        }
        long n;
        synchronized (honestAnswers) {
            n = honestAnswers.stream().filter(e -> e - from >= 0 && e - to < 0).count();
        }
        return n / ((to - from) / 1e9);
    }

    private static String views(List<Optional<Map<String, String>>> stats) {
        return stats.isEmpty() ? "?" : stats.stream().map(s -> s.map(f -> f.getOrDefault("view", "?")).orElse("?"))
                .collect(Collectors.joining("/"));
    }

    /** Ends the hostile JVM if it still runs (by its handle) and the reading threads. */
    @Override
    public void close() {
        timeline.shutdownNow();
        questions.shutdownNow();
        if (process != null && process.isAlive()) {
            send("stop");
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.toHandle().destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.toHandle().destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
