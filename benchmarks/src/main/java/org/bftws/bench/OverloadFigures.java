package org.bftws.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.bftws.axis2.node.BftwsNode;
import org.bftws.rm.RmCounters;

/**
 * {@code ./bftws measure overload}: the testbed's group (four replica JVMs, -Xmx256m) under C appending clients at
 * once, each its own sequence, for each C asked (8, 64, 256 by default), a fresh group each time. Beyond a replica's
 * {@code maxHeldExchanges} (64) waiting exchanges, the oldest is answered with the retry-later fault and the client
 * sends it again after its backoff; the run counts those faults (client side) and the exchanges let go (replica
 * side), and checks afterwards that every replica holds the same log with every accepted append exactly once. One line
 * per level: {@code overload: C clients: N ok, F failed, T req/s, exactly once, states equal, R retry-later faults,
 * L exchanges let go, heap max H MB, no OutOfMemoryError}.
 */
final class OverloadFigures {

    private static final long CALL_TIMEOUT_MILLIS = 120_000;
    private static final Duration STATUS_TIMEOUT = Duration.ofSeconds(10);
    private static final Pattern LET_GO = Pattern.compile("\"held exchanges let go\"\\s*:\\s*(\\d+)");

    private OverloadFigures() {
    }

    static void run(MeasureOptions options, PrintStream out) throws IOException, InterruptedException {
        out.println("overload: " + options.clients() + " appending clients, " + options.seconds() + " s each, a fresh "
                + "group of four replicas (-Xmx" + Soak.HEAP + ") each time");
        List<String> lines = new ArrayList<>();
        boolean passed = true;
        for (int c : options.clients()) {
            Level level = level(options, c, out);
            lines.add(level.line());
            out.println(level.line());
            passed &= level.passed();
        }
        out.println();
        out.println("| clients | ok | failed | req/s | exactly once | states | retry-later faults | exchanges let go "
                + "| heap max MB | OutOfMemoryError |");
        out.println("|---|---|---|---|---|---|---|---|---|---|");
        lines.forEach(l -> out.println(row(l)));
        if (!passed) {
            throw new IllegalStateException("a level failed (see above)");
        }
    }

    /** One outcome. */
    record Level(int clients, int ok, int failed, double perSecond, String exactlyOnce, boolean statesEqual,
                 long retryLater, long letGo, long heapMax, boolean outOfMemory) {

        boolean passed() {
            return failed == 0 && "exactly once".equals(exactlyOnce) && statesEqual && !outOfMemory;
        }

        String line() {
            return String.format(Locale.ROOT, "overload: %d clients: %d ok, %d failed, %.1f req/s, %s, %s, %d retry-later"
                            + " faults, %d exchanges let go, heap max %d MB, %s", clients, ok, failed, perSecond,
                    exactlyOnce, statesEqual ? "states equal" : "states differ", retryLater, letGo,
                    ReplicaStatus.megabytes(heapMax), outOfMemory ? "OutOfMemoryError" : "no OutOfMemoryError");
        }
    }

    /** A result line as a Markdown table row. */
    static String row(String line) {
        String[] f = line.substring(line.indexOf(' ') + 1).split(", |: ");
        List<String> cells = new ArrayList<>();
        for (String s : f) {
            cells.add(s.replaceAll(" (clients|ok|failed|req/s|retry-later faults|exchanges let go|MB)$", "")
                    .replace("heap max ", ""));
        }
        return "| " + String.join(" | ", cells) + " |";
    }

    private static Level level(MeasureOptions options, int c, PrintStream out)
            throws IOException, InterruptedException {
        Path runDir = options.home().resolve("measure").resolve(LocalDateTime.now().format(
                DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)) + "-overload-" + c).toAbsolutePath();
        Level level = null;
        try (ReplicaGroup group = ReplicaGroup.start(new ReplicaGroup.Settings(runDir,
                options.home().resolve("testbed").resolve("keys"), options.security(), null, false, List.of(),
                Soak.HEAP));
             AppendClients clients = AppendClients.open(group.replicasXml(), TestbedDeployment.CLIENT,
                     runDir.resolve("client"), TestbedDeployment.GROUP_ENDPOINT, CALL_TIMEOUT_MILLIS)) {
            RmCounters counters = BftwsNode.of(clients.context()).counters();
            long heapMax = 0;
            clients.start("o" + c, c);
            long start = System.nanoTime();
            long end = start + TimeUnit.SECONDS.toNanos(options.seconds());
            while (System.nanoTime() < end) {
                Thread.sleep(2_000);
                for (int i = 0; i < ReplicaGroup.SIZE; i++) {
                    heapMax = Math.max(heapMax, ReplicaStatus.read(group.port(i), STATUS_TIMEOUT)
                            .map(ReplicaStatus::heapUsedBytes).orElse(0L));
                }
            }
            int okInWindow = clients.accepted().size();
            double seconds = (System.nanoTime() - start) / 1e9;
            clients.stop();
            Map<String, EchoStateProbe.Reading> states = group.awaitSameState(clients.accepted().size(),
                    Duration.ofSeconds(1), Duration.ofMinutes(3));
            boolean equal = states.values().stream().distinct().count() == 1;
            String once = "exactly once";
            for (EchoStateProbe.Reading r : states.values()) {
                ExactlyOnce.Result result = ExactlyOnce.check(r.entries(), clients.calls());
                if (!result.holds()) {
                    once = result.summary();
                    out.println("overload: " + c + " clients: " + result.examples());
                }
            }
            long letGo = 0;
            boolean oom = false;
            for (int i = 0; i < ReplicaGroup.SIZE; i++) {
                letGo += letGo(group.port(i));
                oom |= !group.alive(i) || mentionsOutOfMemory(runDir.resolve(ReplicaGroup.name(i) + ".log"));
            }
            clients.failed().stream().limit(5).forEach(f -> out.println("overload: " + c + " clients: failed "
                    + f.value() + ": " + f.problem()));
            level = new Level(c, clients.accepted().size(), clients.failed().size(), okInWindow / seconds, once,
                    equal, counters.retryLaterReceived.get(), letGo, heapMax, oom);
            return level;
        } finally {
            if (level != null && level.passed() && !options.keep()) {
                Testbed.deleteQuietly(runDir);
            } else {
                out.println("overload: run directory kept: " + runDir);
            }
        }
    }

    private static long letGo(int port) {
        try {
            java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port
                            + "/bftws/status")).timeout(STATUS_TIMEOUT).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            Matcher m = LET_GO.matcher(r.body());
            return m.find() ? Long.parseLong(m.group(1)) : 0;
        } catch (IOException | RuntimeException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    private static boolean mentionsOutOfMemory(Path log) {
        try {
            return Files.exists(log) && Files.readString(log).contains("OutOfMemoryError");
        } catch (IOException e) {
            return false;
        }
    }
}
