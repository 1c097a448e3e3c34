package org.bftws.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.bftws.bench.hostile.HostileClient;
import org.bftws.bench.hostile.HostileMode;

/**
 * {@code ./bftws testbed --hostile MODE[,MODE..]}: while the testbed's echo client calls in a loop for the attacks'
 * timeline, a hostile client ({@link HostileClient}, the second client party {@value TestbedDeployment#HOSTILE_CLIENT}
 * with keys of its own) attacks the group once per mode, one attack after another: the first from {@code start}
 * seconds into the measured phase, each for {@code duration} seconds, the next {@code after} seconds after the last
 * one stopped, each to the times planned from the start of the measured phase. Each attack is a JVM of its own, started with the others while the honest client warms up, which
 * ends when its attack does; the measured phase starts once all are set up. Every {@value #WINDOW_SECONDS} s it prints
 * honest calls per second, the requests each replica executed per second, each replica's view (both from the
 * replicas' {@code stats} answers), the replicas' CPU (their processes' CPU time, which the JDK reads from
 * /proc/PID/stat on Linux, in % of one core, summed) and the hostile calls sent per second; then for each attack a
 * summary (honest calls per second before, during and after it, views), its refusals (the hostile requests against
 * what the replicas executed and refused), and with {@code valid} among several modes the honest calls during each
 * attack against the control's; then the check: for every attack, no replica changed its view, an honest call was
 * answered within {@link HostileOptions#RECOVERY_LIMIT} after it stopped, and what the replicas executed and refused
 * accounts for its requests. Only the processes it started are ever signalled.
 */
final class HostileRun implements AutoCloseable {

    static final int WINDOW_SECONDS = 5;
    /** How long the honest calls still in flight at the end of the timeline get before they count as failed. */
    static final Duration SETTLE = Duration.ofSeconds(5);
    private static final Duration STATS_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    /** The replicas' stats fields: requests refused by authentication; connections closed before one was read. */
    private static final List<String> SECURITY_REFUSALS = List.of("security-refusals");
    private static final List<String> CLOSED_UNREAD = List.of("connections-refused-queue-full",
            "stale-connections-dropped", "connections-refused-tls");
    /** The replicas' stats field of the requests they executed. */
    private static final List<String> DELIVERED = List.of("delivered");

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
    private final List<Attack> attacks = new ArrayList<>();
    /** The honest client's threads: how many honest calls may be executed and not yet answered at any time. */
    private final int honestClients;
    /** The node the hostile modes treat as the primary (view 0's). */
    private String primary;
    private volatile long t0;
    private volatile long measuredEnd;
    /** The readings at the start of the current window. */
    private volatile Sample last;

    /** One window's readings: when, honest answers so far, per replica its stats fields (empty: no answer), CPU. */
    private record Sample(long nanos, long honest, List<Optional<Map<String, String>>> stats, long cpuNanos,
                          long hostileSent) {
    }

    /** One attack: its mode, its hostile JVM, and what the run read around it. */
    private static final class Attack {
        final HostileMode mode;
        final HostileClientProcess client;
        /** When it started and stopped (nanoTime); 0: not (yet). */
        volatile long started;
        volatile long stopped;
        /**
         * The replicas' stats when it started, and when the next one started (or the run ended); each read between
         * two instants (nanoTime): asked, and all answered.
         */
        volatile List<Optional<Map<String, String>>> atStart = List.of();
        volatile List<Optional<Map<String, String>>> atEnd = List.of();
        volatile long atStartAsked;
        volatile long atStartRead;
        volatile long atEndAsked;
        volatile long atEndRead;

        Attack(HostileMode mode, Path runDir, PrintStream out) {
            this.mode = mode;
            this.client = new HostileClientProcess(mode, runDir.resolve("hostile-" + mode.label() + ".log"), out);
        }

        /** Stops its JVM (forcibly after 10 s); then the attack has stopped. */
        void stop() {
            client.stop(10);
            stopped = System.nanoTime();
        }
    }

    HostileRun(HostileOptions options, int honestClients, TestbedDeployment deployment, List<ReplicaProcess> replicas,
               Path runDir, PrintStream out) {
        this.options = options;
        this.honestClients = honestClients;
        this.deployment = deployment;
        this.replicas = List.copyOf(replicas);
        this.runDir = runDir;
        this.out = out;
        for (HostileMode mode : options.modes()) {
            attacks.add(new Attack(mode, runDir, out));
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /**
     * Starts the hostile client's JVMs, one per attack, which set themselves up (Axis2, keys, their sequences) while
     * the honest client warms up, and then wait for their attack.
     */
    void launch() throws IOException {
        Path conf = deployment.writeClientCopy(runDir.resolve("hostile-replicas.xml"), options.protocolAttributes());
        primary = deployment.nodes().stream().filter(n -> n.role().orders() && n.id() == 0).findFirst()
                .orElseThrow().name();
        // the replicas' service endpoints as the run's replicas.xml gives them (HTTPS with <tls>)
        String targets = org.bftws.config.ReplicasConfigReader.read(conf, org.bftws.config.KeyFileCheck.none())
                .groupByService(TestbedDeployment.SERVICE).orElseThrow().nodes().stream()
                .map(n -> n.serviceEndpoint().toString()).collect(Collectors.joining(","));
        out.println(options.describe());
        for (Attack a : attacks) {
            a.client.launch(List.of("--threads", Integer.toString(options.threads()), "--rate",
                    Double.toString(options.rate()), "--size", "10", "--timeout-ms",
                    Long.toString(options.timeout().toMillis()), "--conf", conf.toString(), "--party",
                    TestbedDeployment.HOSTILE_CLIENT, "--repository", runDir.resolve("hostile-" + a.mode.label())
                    .toString(), "--endpoint", deployment.clientEndpoint(), "--primary", primary, "--targets",
                    targets));
        }
    }

    /**
     * The honest client's warm-up is over: once every hostile JVM is set up (at most {@link #READY_TIMEOUT}), its
     * measured phase begins and the timeline starts. Each JVM sends valid requests to open its sequences while it sets
     * up; they must not fall into an attack's window, where they would count as requests the replicas executed.
     * Called on the honest client's thread, whose measured requests wait for it to return.
     */
    void measuring() {
        long waited = System.nanoTime();
        long deadline = waited + READY_TIMEOUT.toNanos();
        try {
            for (Attack a : attacks) {
                a.client.awaitReady(deadline - System.nanoTime());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (System.nanoTime() - waited > 1_000_000_000L) {
            out.printf(Locale.ROOT, "hostile run: waited %.1f s after the warm-up for the hostile clients to be set "
                    + "up%n", (System.nanoTime() - waited) / 1e9);
        }
        t0 = System.nanoTime();
        List<String> planned = new ArrayList<>();
        for (int i = 0; i < attacks.size(); i++) {
            planned.add(String.format(Locale.ROOT, "%s from %d s to %d s", attacks.get(i).mode.label(),
                    options.attackStart(i).toSeconds(), options.attackStart(i).plus(options.duration()).toSeconds()));
        }
        out.printf(Locale.ROOT, "hostile run: %d s windows from the start of the measured phase; %s %s (each %d s "
                        + "after the last one stopped), the echo client calls until %d s%n", WINDOW_SECONDS,
                attacks.size() == 1 ? "attack" : "attacks", String.join(", ", planned), options.after().toSeconds(),
                options.total().toSeconds());
        out.println(header());
        // on the timeline's thread: this one is the client's, whose measured requests wait for it to return
        timeline.execute(() -> last = sample());
        timeline.scheduleAtFixedRate(this::window, WINDOW_SECONDS, WINDOW_SECONDS, TimeUnit.SECONDS);
        for (int i = 0; i < attacks.size(); i++) {
            int attack = i;
            timeline.schedule(() -> begin(attack), options.attackStart(i).toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Starts attack {@code i}, its JVM being ready, and has it stopped at its planned end: the attacks keep to the
     * times planned from the start of the measured phase (each starts once reading the replicas' stats is done, a
     * second or two on a loaded machine, and stops on time), so that those delays do not add up and push the last
     * attack past the measured phase. The replicas' stats read now are its start's and the previous attack's end. One
     * whose JVM is not ready is skipped (the check fails), and the next one comes as planned.
     */
    private void begin(int i) {
        Attack a = attacks.get(i);
        if (!a.client.isReady()) {
            out.println("hostile client " + a.mode.label() + ": not ready (see " + a.client.log + "); no attack");
            return;
        }
        long asked = System.nanoTime();
        List<Optional<Map<String, String>>> stats = stats();
        long read = System.nanoTime();
        if (i > 0) {
            Attack previous = attacks.get(i - 1);
            previous.atEnd = stats;
            previous.atEndAsked = asked;
            previous.atEndRead = read;
        }
        a.atStart = stats;
        a.atStartAsked = asked;
        a.atStartRead = read;
        a.client.start();
        a.started = System.nanoTime();
        long end = t0 + options.attackStart(i).plus(options.duration()).toNanos();
        timeline.schedule(() -> attacks.get(i).stop(), Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
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
        return new Sample(System.nanoTime(), honestCount(), stats, cpu,
                attacks.stream().mapToLong(a -> a.client.sent()).sum());
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
        return String.format(Locale.ROOT, "  %-11s %-12s %9s  %-31s %-9s %6s  %s", "window", "phase", "honest/s",
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
        return String.format(Locale.ROOT, "  %-11s %-12s %9.1f  %-31s %-9s %6.0f  %.1f", a + "-" + b + " s",
                phase(from.nanos(), to.nanos()), (to.honest() - from.honest()) / seconds, String.join(" ", executed),
                String.join("/", views), (to.cpuNanos() - from.cpuNanos()) / 1e9 / seconds * 100,
                (to.hostileSent() - from.hostileSent()) / seconds);
    }

    /**
     * The window from {@code a} to {@code b} (nanoTime): within an attack, its mode; across an attack's edge,
     * {@code mixed}; before the first attack started {@code before}, else {@code after}.
     */
    private String phase(long a, long b) {
        boolean anyStarted = false;
        for (Attack x : attacks) {
            long s = x.started;
            if (s == 0 || s - b >= 0) {
                continue;
            }
            anyStarted = true;
            long e = x.stopped;
            boolean endedBefore = e != 0 && e - a <= 0;
            if (endedBefore) {
                continue;
            }
            return s - a <= 0 && (e == 0 || e - b >= 0) ? x.mode.label() : "mixed";
        }
        return anyStarted ? "after" : "before";
    }

    private static long delivered(Map<String, String> stats) {
        try {
            return Long.parseLong(stats.getOrDefault("delivered", "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * After the honest client ended: the last window, each attack's summary and refusals, the honest calls against
     * the control's, and the check; true when the check passed for every attack (no view change, an honest answer
     * within {@link HostileOptions#RECOVERY_LIMIT} after it stopped, the refusals account for its requests).
     */
    boolean report() throws InterruptedException {
        timeline.shutdownNow();
        timeline.awaitTermination(15, TimeUnit.SECONDS);
        for (Attack a : attacks) {
            if (a.started != 0 && a.stopped == 0) {
                a.stop(); // the measured phase ended before the attack did
            }
        }
        long end = measuredEnd != 0 ? measuredEnd : System.nanoTime();
        long asked = System.nanoTime();
        Sample now = sample();
        if (last != null && now.nanos() - last.nanos() > 1_000_000_000L) {
            out.println(row(last, now));
        }
        List<String> problems = new ArrayList<>();
        List<String> recoveries = new ArrayList<>();
        boolean controlNoted = false;
        String viewsAfter = views(now.stats());
        for (int i = 0; i < attacks.size(); i++) {
            Attack a = attacks.get(i);
            String label = a.mode.label();
            if (a.started == 0) {
                out.println("hostile summary " + label + ": the attack never started");
                problems.add(label + ": the attack never started (see " + a.client.log + ")");
                continue;
            }
            if (a.atEnd.isEmpty()) {
                a.atEnd = now.stats();
                a.atEndAsked = asked;
                a.atEndRead = now.nanos();
            }
            long from = i == 0 || attacks.get(i - 1).stopped == 0 ? t0 : attacks.get(i - 1).stopped;
            long to = i + 1 < attacks.size() && attacks.get(i + 1).started != 0 ? attacks.get(i + 1).started : end;
            out.printf(Locale.ROOT, "hostile summary %s: honest calls/s before %.1f / during %.1f / after %.1f; views"
                            + " at the attack's start %s, after %s; hostile client: %s%n", label,
                    rate(from, a.started), rate(a.started, a.stopped), rate(a.stopped, to), views(a.atStart),
                    views(a.atEnd), a.client.totals().isEmpty() ? "no totals" : a.client.totals());
            List<String> own = new ArrayList<>();
            refusals(a, own);
            for (int r = 0; r < replicas.size(); r++) {
                String v0 = view(a.atStart, r);
                String v1 = view(a.atEnd, r);
                if (v0 == null || v1 == null) {
                    own.add(replicas.get(r).name() + " did not say its view " + (v0 == null
                            ? "when the attack started" : "when it was over"));
                } else if (!v0.equals(v1)) {
                    own.add(replicas.get(r).name() + " changed its view from " + v0 + " to " + v1);
                }
            }
            Optional<Long> first = firstAnswerAfter(a.stopped);
            if (first.isEmpty()) {
                own.add(String.format(Locale.ROOT, "no honest call was answered in the %.1f s after the attack "
                        + "stopped", (end - a.stopped) / 1e9));
                recoveries.add(label + " none");
            } else {
                double seconds = (first.get() - a.stopped) / 1e9;
                recoveries.add(String.format(Locale.ROOT, "%s %.2f s", label, seconds));
                if (first.get() - a.stopped > HostileOptions.RECOVERY_LIMIT.toNanos()) {
                    own.add(String.format(Locale.ROOT, "the first honest call after the attack was answered only "
                            + "%.1f s after it stopped (limit %d s)", seconds,
                            HostileOptions.RECOVERY_LIMIT.toSeconds()));
                }
            }
            if (a.mode == HostileMode.VALID) {
                // the control behaves: a heavy load of valid requests may make replicas suspect a correct primary, as
                // PBFT's timers are meant to; said, not failed (its refusals and what it executed are checked)
                List<String> noted = own.stream().filter(p -> p.contains("view") || p.contains("honest call"))
                        .toList();
                if (!noted.isEmpty()) {
                    controlNoted = true;
                    out.println("hostile note valid: " + String.join("; ", noted) + " (the control, a client that "
                            + "behaves: not a failure of the check)");
                }
                own.removeAll(noted);
            }
            own.forEach(p -> problems.add(label + ": " + p));
        }
        againstControl();
        String recovery = "first honest answer after " + (attacks.size() == 1 ? "the attack stopped: "
                : "each attack stopped: ") + String.join(", ", recoveries);
        if (problems.isEmpty()) {
            boolean accounted = attacks.stream().anyMatch(a -> a.mode.spoilsAuthenticators()
                    || a.mode == HostileMode.VALID);
            out.println("hostile check: ok: no replica changed its view" + (controlNoted ? " but during the control"
                    : "") + " (" + viewsAfter + " at the end), " + recovery
                    + (accounted ? ", the refusals account for the hostile requests" : ""));
            return true;
        }
        out.println("hostile check: FAILED: " + String.join("; ", problems) + " (" + recovery + ")");
        return false;
    }

    /**
     * With {@code valid} among several modes: {@code hostile against the control: MODE R% ..}, the honest calls per
     * second during each other attack in % of those during the control's (the same client, threads and pacing, its
     * requests valid). Printed, not checked: what share is enough is the caller's judgement.
     */
    private void againstControl() {
        Optional<Attack> control = attacks.stream().filter(a -> a.mode == HostileMode.VALID && a.stopped != 0)
                .findFirst();
        if (control.isEmpty() || attacks.size() < 2) {
            return;
        }
        double base = rate(control.get().started, control.get().stopped);
        List<String> shares = new ArrayList<>();
        for (Attack a : attacks) {
            if (a.mode != HostileMode.VALID && a.stopped != 0) {
                double during = rate(a.started, a.stopped);
                shares.add(String.format(Locale.ROOT, "%s %.1f/s = %s", a.mode.label(), during,
                        base > 0 ? String.format(Locale.ROOT, "%.0f%%", 100 * during / base) : "n/a"));
            }
        }
        out.printf(Locale.ROOT, "hostile against the control: honest calls/s during each attack against %.1f/s during "
                + "valid's: %s%n", base, String.join(", ", shares));
    }

    private static String view(List<Optional<Map<String, String>>> stats, int i) {
        return stats.size() > i ? stats.get(i).map(f -> f.get("view")).orElse(null) : null;
    }

    /**
     * Prints {@code hostile refusals MODE: sent=S executed=L..U spoilt=K retransmissions=T refused=R closed=C
     * replica0=R0+C0 ..}, from the attack's start to the next one's (or the end): the attack's hostile client's totals
     * (calls, requests spoilt, the module's retransmissions to one replica), how many requests besides the honest ones
     * the replicas executed meanwhile, at least and at most ({@link #executedOf}: at least none under a mode that
     * spoils authenticators, at least one under the control), and for each replica the security refusals (Ri) and the
     * connections its HTTP server closed before a request on them was read (Ci: queue full, stale, TLS handshake);
     * adds to {@code problems} where they do not account for the hostile requests. A replica whose entry the mode
     * spoils must refuse every spoilt request it reads, once (the MulticastSender sends each to every replica), and
     * each retransmission to it once more; one whose entry stays valid, and every replica under {@code valid}, none
     * (but for N of the previous attack's, if it had this replica refuse them: on their way when it stopped).
     * So at a refusing replica K - N <= Ri + Ci and Ri <= K + T + N: N ({@code --hostile-threads}, one request per
     * thread) is what may still be on its way when the client stops (it reports its totals once more then, no thread
     * starting another call); the connections closed unread are counted too, as a loaded machine closes some of the
     * attack's (a TLS handshake or a wait for a worker longer than its client waits), though honest ones among them
     * cannot be told apart. For {@code garbage} and {@code create-flood} the refusals are printed, not checked (they
     * are refused before authentication, or not by it).
     */
    private void refusals(Attack attack, List<String> problems) {
        HostileMode mode = attack.mode;
        Map<String, String> totals = attack.client.fields();
        List<Optional<Map<String, String>>> before = attack.atStart;
        List<Optional<Map<String, String>>> after = attack.atEnd;
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
        Optional<long[]> executed = executedOf(attack);
        String line = "hostile refusals " + mode.label() + ": sent=" + totals.getOrDefault("sent", "?") + " executed="
                + executed.map(e -> e[0] + ".." + e[1]).orElse("?");
        if (!mode.spoilsAuthenticators() && mode != HostileMode.VALID) {
            out.println(line + " refused=" + refused + " closed=" + closed + " " + String.join(" ", counted)
                    + " (not checked: " + mode.label() + " is not refused by the request authenticator)");
            return;
        }
        long spoilt = Long.parseLong(totals.getOrDefault("spoilt", "-1"));
        long retransmissions = Long.parseLong(totals.getOrDefault("retransmissions", "-1"));
        if (spoilt < 0 || retransmissions < 0 || !known || executed.isEmpty()) {
            out.println(line + " refused=" + refused + " closed=" + closed + " " + String.join(" ", counted));
            problems.add(spoilt < 0 || retransmissions < 0 ? "the hostile client reported no totals of its requests"
                    : "a replica did not say its refusals or what it executed");
            return;
        }
        if (mode.spoilsAuthenticators() && spoilt == 0) {
            problems.add("the hostile client spoilt no request: none reached the replicas to be refused (could it "
                    + "open its sequences? see " + attack.client.log + ")");
        } else if (mode.spoilsAuthenticators() && executed.get()[0] > 0) {
            problems.add("the replicas executed at least " + executed.get()[0] + " requests besides the honest ones:"
                    + " spoilt requests got through");
        } else if (mode == HostileMode.VALID && executed.get()[0] == 0) {
            problems.add("the replicas need not have executed any request besides the honest ones (at most "
                    + executed.get()[1] + "): the control put no load on the group (see " + attack.client.log + ")");
        }
        long inFlight = options.threads();
        int index = attacks.indexOf(attack);
        HostileMode previous = index > 0 && attacks.get(index - 1).started != 0 ? attacks.get(index - 1).mode : null;
        List<String> refusing = new ArrayList<>();
        for (int i = 0; i < replicas.size(); i++) {
            String name = replicas.get(i).name();
            long r = between(before, after, i, SECURITY_REFUSALS);
            long c = between(before, after, i, CLOSED_UNREAD);
            if (!mode.refusedBy(name, primary)) {
                // what the previous attack had on its way when it stopped may be refused in this one's window
                long late = previous != null && previous.refusedBy(name, primary) ? inFlight : 0;
                if (r > late) {
                    problems.add(String.format(Locale.ROOT, "%s counted %d security refusals, where %s requests "
                            + "are valid%s", name, r, mode.label(), late == 0 ? "" : " (" + late + " of the previous "
                            + "attack's may have been on their way)"));
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

    /**
     * How many requests besides the honest ones the replicas executed from {@code attack}'s start to the next one's
     * (or the end), at least and at most. Every replica executes the same requests in the same order, so the most any
     * replica has executed ({@code delivered}) is how far the group got, whatever the others lag; D, how far it got
     * between the two readings, less the honest calls answered meanwhile, is the rest. (Each replica's own growth would
     * not do: one that lagged at the first reading executes, between the two, requests answered before it.) A reading
     * of the replicas takes a while (they are asked at once, and answer when they do), and an honest call may be
     * executed on one side of a reading and answered on the other (one per honest thread at most): so at least D less
     * the honest calls answered from the first reading's asking to the second's last answer and less the honest
     * threads, at most D less those answered from the first reading's last answer to the second's asking and plus the
     * honest threads (negative bounds are 0). An honest call that failed but was executed counts as one besides them
     * (the run fails on it anyway). Empty when a replica did not answer.
     */
    private Optional<long[]> executedOf(Attack attack) {
        Optional<Long> from = furthest(attack.atStart);
        Optional<Long> to = furthest(attack.atEnd);
        if (from.isEmpty() || to.isEmpty()) {
            return Optional.empty();
        }
        long group = to.get() - from.get();
        long widest = answeredBetween(attack.atStartAsked, attack.atEndRead);
        long narrowest = answeredBetween(attack.atStartRead, attack.atEndAsked);
        return Optional.of(new long[] {Math.max(0, group - widest - honestClients),
                Math.max(0, group - narrowest + honestClients)});
    }

    /** The most requests any replica had executed at a reading; empty when a replica did not answer. */
    private Optional<Long> furthest(List<Optional<Map<String, String>>> stats) {
        long most = -1;
        for (int i = 0; i < replicas.size(); i++) {
            Optional<Long> n = i < stats.size() ? stats.get(i).flatMap(f -> sum(f, DELIVERED)) : Optional.empty();
            if (n.isEmpty()) {
                return Optional.empty();
            }
            most = Math.max(most, n.get());
        }
        return Optional.of(most);
    }

    /** Honest calls answered between two instants (nanoTime). */
    private long answeredBetween(long from, long to) {
        synchronized (honestAnswers) {
            return honestAnswers.stream().filter(e -> e - from >= 0 && e - to < 0).count();
        }
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
        return to - from <= 0 ? 0 : answeredBetween(from, to) / ((to - from) / 1e9);
    }

    private static String views(List<Optional<Map<String, String>>> stats) {
        return stats.isEmpty() ? "?" : stats.stream().map(s -> s.map(f -> f.getOrDefault("view", "?")).orElse("?"))
                .collect(Collectors.joining("/"));
    }

    /** Ends the hostile JVMs that still run (by their handles) and the reading threads. */
    @Override
    public void close() {
        timeline.shutdownNow();
        questions.shutdownNow();
        attacks.forEach(a -> a.client.stop(5));
    }
}
