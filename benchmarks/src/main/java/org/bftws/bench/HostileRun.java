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
import org.bftws.bench.hostile.HostileMode;

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
    /** The replicas' stats fields: requests refused by authentication; connections closed before one was read. */
    private static final List<String> SECURITY_REFUSALS = List.of("security-refusals");
    private static final List<String> CLOSED_UNREAD = List.of("connections-refused-queue-full",
            "stale-connections-dropped", "connections-refused-tls");

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
    /** The hostile client's last totals as fields: sent, replied, faults, errors, spoilt, retransmissions. */
    private volatile Map<String, String> hostileFields = Map.of();
    /** The node the hostile modes treat as the primary (view 0's). */
    private String primary;
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
        primary = deployment.nodes().stream().filter(n -> n.role().orders() && n.id() == 0).findFirst()
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
                    hostileFields = ReplicaGroup.fields(line);
                    hostileSent.set(Long.parseLong(hostileFields.getOrDefault("sent", "0")));
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
        refusals(viewsAtStart, now.stats(), problems);
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
            out.println("hostile check: ok: no replica changed its view (" + viewsAfter + "), " + recovery
                    + (options.mode().spoilsAuthenticators() || options.mode() == HostileMode.VALID
                    ? ", the refusals account for the hostile requests" : ""));
            return true;
        }
        out.println("hostile check: FAILED: " + String.join("; ", problems) + " (" + recovery + ")");
        return false;
    }

    /**
     * Prints {@code hostile refusals: sent=S spoilt=K retransmissions=T refused=R closed=C replica0=R0+C0 ..}: the
     * hostile client's totals (calls, requests spoilt, the module's retransmissions to one replica), and for each
     * replica the security refusals (Ri) and the connections its HTTP server closed before a request on them was
     * read (Ci: queue full, stale, TLS handshake failed) from the attack's start ({@code before}) to {@code after};
     * adds to {@code problems} where they do not account for the hostile requests. A replica whose entry the mode
     * spoils must refuse every spoilt request it reads, once (the MulticastSender sends each to every replica), and
     * each retransmission to it once more; one whose entry stays valid, and every replica under {@code valid}, none.
     * So at a refusing replica K - N <= Ri + Ci and Ri <= K + T + N: N ({@code --hostile-threads}, one request per
     * thread) is what may still be on its way when the client stops (it reports its totals once more then, no thread
     * starting another call); the connections closed unread are counted too, as a loaded machine closes some of the
     * attack's (a TLS handshake or a wait for a worker longer than its client waits), though honest ones among them
     * cannot be told apart. For {@code garbage} and {@code create-flood} the refusals are printed, not checked (they
     * are refused before authentication, or not by it).
     */
    private void refusals(List<Optional<Map<String, String>>> before, List<Optional<Map<String, String>>> after,
                          List<String> problems) {
        HostileMode mode = options.mode();
        Map<String, String> totals = hostileFields;
        List<String> counted = new ArrayList<>();
        long refused = 0;
        long closed = 0;
        boolean known = true;
        for (int i = 0; i < replicas.size(); i++) {
            long r = between(before, after, i, SECURITY_REFUSALS);
            long c = between(before, after, i, CLOSED_UNREAD);
            known &= r >= 0 && c >= 0;
            refused += Math.max(0, r);
            closed += Math.max(0, c);
            counted.add(replicas.get(i).name() + "=" + (r >= 0 ? Long.toString(r) : "?") + "+"
                    + (c >= 0 ? Long.toString(c) : "?"));
        }
        String line = "hostile refusals: sent=" + totals.getOrDefault("sent", "?");
        if (!mode.spoilsAuthenticators() && mode != HostileMode.VALID) {
            out.println(line + " refused=" + refused + " closed=" + closed + " " + String.join(" ", counted)
                    + " (not checked: " + mode.label() + " is not refused by the request authenticator)");
            return;
        }
        long spoilt = Long.parseLong(totals.getOrDefault("spoilt", "-1"));
        long retransmissions = Long.parseLong(totals.getOrDefault("retransmissions", "-1"));
        if (spoilt < 0 || retransmissions < 0 || !known) {
            out.println(line + " refused=" + refused + " closed=" + closed + " " + String.join(" ", counted));
            problems.add(spoilt < 0 || retransmissions < 0 ? "the hostile client reported no totals of its requests"
                    : "a replica did not say its refusals");
            return;
        }
        if (mode.spoilsAuthenticators() && spoilt == 0) {
            problems.add("the hostile client spoilt no request: none reached the replicas to be refused (could it "
                    + "open its sequences? see its log)");
        } else if (mode == HostileMode.VALID && Long.parseLong(totals.getOrDefault("replied", "0")) == 0) {
            problems.add("none of the hostile client's valid requests was answered: the control put no load on the "
                    + "group (see its log)");
        }
        long inFlight = options.threads();
        List<String> refusing = new ArrayList<>();
        for (int i = 0; i < replicas.size(); i++) {
            String name = replicas.get(i).name();
            long r = between(before, after, i, SECURITY_REFUSALS);
            long c = between(before, after, i, CLOSED_UNREAD);
            if (!mode.refusedBy(name, primary)) {
                if (r != 0) {
                    problems.add(String.format(Locale.ROOT, "%s counted %d security refusals, where %s requests "
                            + "are valid", name, r, mode.label()));
                }
                continue;
            }
            refusing.add(name);
            if (r + c < spoilt - inFlight) {
                problems.add(String.format(Locale.ROOT, "%s counted %d security refusals and %d connections closed "
                        + "unread, fewer than the %d spoilt hostile requests less %d in flight", name, r, c, spoilt,
                        inFlight));
            } else if (r > spoilt + retransmissions + inFlight) {
                problems.add(String.format(Locale.ROOT, "%s counted %d security refusals, more than the %d spoilt "
                        + "hostile requests, %d retransmissions and %d in flight", name, r, spoilt, retransmissions,
                        inFlight));
            }
        }
        out.printf(Locale.ROOT, "%s spoilt=%d retransmissions=%d refused=%d closed=%d %s (%s)%n", line, spoilt,
                retransmissions, refused, closed, String.join(" ", counted), refusing.isEmpty()
                        ? "security refusals + connections closed unread; no replica may refuse a request of "
                        + mode.label()
                        : "security refusals + connections closed unread; each of " + String.join(", ", refusing)
                        + " must count between " + Math.max(0, spoilt - inFlight) + " (the spoilt requests less "
                        + inFlight + " in flight) and " + (spoilt + retransmissions + inFlight)
                        + " refusals (with every retransmission)");
    }

    /** Replica {@code i}'s {@code counter} (summed) from {@code before} to {@code after}; -1 when not known. */
    private static long between(List<Optional<Map<String, String>>> before, List<Optional<Map<String, String>>> after,
                                int i, List<String> counter) {
        if (before.size() <= i || after.size() <= i) {
            return -1;
        }
        Optional<Long> a = before.get(i).flatMap(f -> sum(f, counter));
        Optional<Long> b = after.get(i).flatMap(f -> sum(f, counter));
        return a.isPresent() && b.isPresent() ? b.get() - a.get() : -1;
    }

    private static Optional<Long> sum(Map<String, String> stats, List<String> counter) {
        long n = 0;
        for (String name : counter) {
            String v = stats.get(name);
            if (v == null) {
                return Optional.empty();
            }
            n += Long.parseLong(v);
        }
        return Optional.of(n);
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
