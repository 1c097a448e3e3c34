package org.bftws.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.bftws.config.SecurityProfile;

/**
 * {@code ./bftws soak}: four replica JVMs of the echo sample (or, with {@code --service kv}, of the key-value
 * sample, whose state does not grow) with data directories under clients that call without pause for a given time,
 * one replica killed (SIGKILL) every few minutes in rotation and started again after a short pause, from its data
 * directory or empty, alternately (by round, so each replica is restarted both ways). Every few seconds it
 * reads each replica's heap from its status page. At the end the clients stop and it waits (bounded) until every
 * replica reports the same state twice in a row, then checks each state against every decided call
 * ({@link SoakLoad#judge}: nothing lost, nothing executed twice).
 * The last line: {@code soak: N ok, F failed, R restarts, states equal, exactly once, heap max H MB}.
 */
final class Soak {

    /**
     * @param seconds      how long the clients call
     * @param clients      client threads, each its own sequence
     * @param restartEvery seconds between two kills
     * @param down         seconds a killed replica stays down
     * @param security     the group's profile
     * @param protocol     a {@code <protocol .../>} element, or null for the defaults
     * @param keep         keep the run directory
     * @param home         the state directory
     * @param kv           the key-value sample's transfers and increments (state of a fixed size) instead of the
     *                     echo's appends (a log that grows with every call)
     */
    record Options(int seconds, int clients, int restartEvery, int down, SecurityProfile security, String protocol,
                   boolean keep, Path home, boolean kv) {
    }

    /** The testbed's replica heap: the soak checks that a long run fits in it. */
    static final String HEAP = "256m";
    private static final long CALL_TIMEOUT_MILLIS = 60_000;
    private static final Duration STATUS_TIMEOUT = Duration.ofSeconds(5);
    private static final long POLL_MILLIS = 5_000;
    private static final long SETTLE_MILLIS = 300_000;

    private final Options options;
    private final PrintStream out;
    private final long t0 = System.nanoTime();
    /** Per replica: the highest and lowest heap in use since the last progress line, and the highest overall. */
    private final long[] periodMax = new long[ReplicaGroup.SIZE];
    private final long[] periodMin = new long[ReplicaGroup.SIZE];
    private long heapMax;
    /** Each round's live heap per replica (after a full collection), in MB: taken before every kill and at the end. */
    private final List<long[]> liveHeap = new ArrayList<>();
    private int unexpectedExits;

    Soak(Options options, PrintStream out) {
        this.options = options;
        this.out = out;
        resetPeriod();
    }

    int run() {
        Path runDir = options.home().resolve("soak").resolve(LocalDateTime.now().format(
                DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT))).toAbsolutePath();
        out.println("soak: " + (options.seconds() % 60 == 0 ? options.seconds() / 60 + " min" : options.seconds() + " s")
                + ", " + options.clients() + " clients "
                + (options.kv() ? "transferring and incrementing on the key-value sample" : "appending to the echo")
                + ", a replica killed every "
                + options.restartEvery() + " s and down " + options.down() + " s, security "
                + options.security().name().toLowerCase(Locale.ROOT) + ", replicas -Xmx" + HEAP + ", "
                + LocalDateTime.now().withNano(0) + ", load average " + MeasureMain.loadAverage() + ", "
                + Runtime.getRuntime().availableProcessors() + " cores; run directory " + runDir);
        boolean passed = false;
        ReplicaGroup group = null;
        SoakLoad clients = null;
        try {
            group = ReplicaGroup.start(new ReplicaGroup.Settings(runDir,
                    options.home().resolve("testbed").resolve("keys"), options.security(), options.protocol(), true,
                    List.of(), HEAP, null, options.kv()));
            AppendClients node = AppendClients.open(group.replicasXml(), TestbedDeployment.CLIENT,
                    runDir.resolve("client"), TestbedDeployment.GROUP_ENDPOINT, CALL_TIMEOUT_MILLIS);
            try {
                clients = options.kv() ? new KvSoakLoad(node, options.clients(), CALL_TIMEOUT_MILLIS)
                        : new AppendSoakLoad(node);
            } catch (IOException | RuntimeException e) {
                node.close();
                throw e;
            }
            passed = soak(group, clients);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("soak: interrupted");
        } catch (IOException | RuntimeException e) {
            out.println("soak: failed: " + e);
        } finally {
            try {
                if (clients != null) {
                    clients.close();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (group != null) {
                group.stopAll(out);
            }
            if (passed && !options.keep()) {
                Testbed.deleteQuietly(runDir);
            } else {
                out.println("soak: run directory kept: " + runDir);
            }
        }
        return passed ? 0 : 1;
    }

    private boolean soak(ReplicaGroup group, SoakLoad clients) throws IOException, InterruptedException {
        clients.start(options.clients());
        note(group, clients, "clients started");
        // the clients append for the time asked, counted from their start: the replicas' start-up is not part of it
        long appending = System.nanoTime();
        long end = appending + TimeUnit.SECONDS.toNanos(options.seconds());
        long nextKill = appending + TimeUnit.SECONDS.toNanos(options.restartEvery());
        int restarts = 0;
        while (true) {
            long wakeAt = Math.min(end, nextKill);
            watch(group, clients, wakeAt, -1);
            if (System.nanoTime() >= end) {
                break;
            }
            int victim = restarts % ReplicaGroup.SIZE;
            boolean keepData = (restarts + restarts / ReplicaGroup.SIZE) % 2 == 0;
            readLiveHeap(group, clients);
            long pid = group.pid(victim);
            group.crash(victim);
            note(group, clients, "killed " + ReplicaGroup.name(victim) + " (pid " + pid + ", SIGKILL)");
            watch(group, clients, System.nanoTime() + TimeUnit.SECONDS.toNanos(options.down()), victim);
            long started = System.nanoTime();
            group.restart(victim, keepData);
            restarts++;
            note(group, clients, "restarted " + ReplicaGroup.name(victim) + (keepData ? " from its data directory"
                    : " empty") + " (ready in " + seconds(System.nanoTime() - started) + " s)");
            nextKill = started + TimeUnit.SECONDS.toNanos(options.restartEvery());
        }
        clients.stop();
        note(group, clients, "clients stopped; waiting until every replica holds the same state");
        Map<String, EchoStateProbe.Reading> states = settle(group, clients.settleAtLeast());
        readLiveHeap(group, clients);
        out.println("soak: live heap after a full collection, per replica, MB: " + liveHeapSummary(liveHeap));
        boolean equal = states.values().stream().distinct().count() == 1;
        SoakLoad.Judgement judgement = clients.judge(states, out);
        if (!equal) {
            out.println("soak: the replicas' states differ: " + describe(states));
        }
        List<String> failed = clients.failures();
        failed.stream().limit(10).forEach(c -> out.println("soak: failed " + c));
        if (unexpectedExits > 0) {
            out.println("soak: " + unexpectedExits + " replica(s) ended without being killed (see their logs)");
        }
        out.println("soak: done after " + seconds(System.nanoTime() - t0) + " s, load average "
                + MeasureMain.loadAverage());
        out.println(resultLine(clients.ok(), failed.size(), restarts, equal, judgement.summary(), heapMax));
        return failed.isEmpty() && equal && judgement.holds() && unexpectedExits == 0;
    }

    /** The soak's last line. */
    static String resultLine(int ok, int failed, int restarts, boolean statesEqual, String exactlyOnce,
                             long heapMaxBytes) {
        return "soak: " + ok + " ok, " + failed + " failed, " + restarts + " restarts, "
                + (statesEqual ? "states equal" : "states differ") + ", " + exactlyOnce + ", heap max "
                + ReplicaStatus.megabytes(heapMaxBytes) + " MB";
    }

    /**
     * Until {@code until}: reads every running replica's heap every few seconds and starts again (from its data
     * directory) a replica other than {@code down} that ended without being killed, counting it.
     */
    private void watch(ReplicaGroup group, SoakLoad clients, long until, int down)
            throws IOException, InterruptedException {
        while (System.nanoTime() < until) {
            for (int i = 0; i < ReplicaGroup.SIZE; i++) {
                if (i == down) {
                    continue;
                }
                if (!group.alive(i)) {
                    unexpectedExits++;
                    note(group, clients, ReplicaGroup.name(i) + " ended without being killed; its last lines:\n  | "
                            + String.join("\n  | ", group.tail(i)));
                    group.restart(i, true);
                    note(group, clients, "restarted " + ReplicaGroup.name(i) + " from its data directory");
                    continue;
                }
                int replica = i;
                ReplicaStatus.read(group.port(i), STATUS_TIMEOUT).ifPresent(s -> heap(replica, s.heapUsedBytes()));
            }
            long left = until - System.nanoTime();
            if (left > 0) {
                Thread.sleep(Math.min(POLL_MILLIS, TimeUnit.NANOSECONDS.toMillis(left) + 1));
            }
        }
    }

    /**
     * A full collection in every replica, then its heap in use: what the replica keeps, garbage aside. The soak's
     * heap readings between kills include garbage and swing with the collector; these are what "flat" is judged on.
     */
    private void readLiveHeap(ReplicaGroup group, SoakLoad clients) throws InterruptedException {
        long[] round = new long[ReplicaGroup.SIZE];
        for (int i = 0; i < ReplicaGroup.SIZE; i++) {
            round[i] = group.alive(i) ? ReplicaStatus.megabytes(group.liveHeapBytes(i)) : -1;
        }
        liveHeap.add(round);
        note(group, clients, "live heap MB after a full collection " + Arrays.toString(round));
    }

    /** {@code first [a, b, c, d], highest [..], last [..]} over the rounds, or {@code none} without a round. */
    static String liveHeapSummary(List<long[]> rounds) {
        if (rounds.isEmpty()) {
            return "none";
        }
        long[] highest = new long[rounds.get(0).length];
        for (long[] r : rounds) {
            for (int i = 0; i < r.length; i++) {
                highest[i] = Math.max(highest[i], r[i]);
            }
        }
        return "first " + Arrays.toString(rounds.get(0)) + ", highest " + Arrays.toString(highest)
                + ", last " + Arrays.toString(rounds.get(rounds.size() - 1)) + " (" + rounds.size()
                + " rounds)";
    }

    private void heap(int replica, long used) {
        heapMax = Math.max(heapMax, used);
        periodMax[replica] = Math.max(periodMax[replica], used);
        periodMin[replica] = Math.min(periodMin[replica], used);
    }

    private void resetPeriod() {
        for (int i = 0; i < ReplicaGroup.SIZE; i++) {
            periodMax[i] = 0;
            periodMin[i] = Long.MAX_VALUE;
        }
    }

    /** Waits (bounded) until every replica reports the same state twice in a row, with at least {@code atLeast}. */
    private Map<String, EchoStateProbe.Reading> settle(ReplicaGroup group, int atLeast) throws InterruptedException {
        long start = System.nanoTime();
        Map<String, EchoStateProbe.Reading> states = group.awaitSameState(atLeast, Duration.ofSeconds(2),
                Duration.ofMillis(SETTLE_MILLIS));
        EchoStateProbe.Reading first = states.values().iterator().next();
        if (states.values().stream().distinct().count() == 1 && first.count() >= atLeast) {
            out.println("soak: settled at " + first.count() + (options.kv() ? " increments" : " appends") + " after "
                    + seconds(System.nanoTime() - start)
                    + " s");
        } else {
            out.println("soak: not settled after " + SETTLE_MILLIS / 1000 + " s: " + describe(states));
        }
        return states;
    }

    private static String describe(Map<String, EchoStateProbe.Reading> states) {
        List<String> parts = new ArrayList<>();
        states.forEach((name, r) -> parts.add(name + " count " + r.count() + ", digest " + r.digest()));
        return String.join("; ", parts);
    }

    /** A progress line: minutes since the start, what happened, calls so far, heap per replica since the last line. */
    private void note(ReplicaGroup group, SoakLoad clients, String what) {
        List<String> heaps = new ArrayList<>();
        for (int i = 0; i < ReplicaGroup.SIZE; i++) {
            heaps.add(periodMax[i] == 0 ? "-" : ReplicaStatus.megabytes(periodMin[i]) + "-"
                    + ReplicaStatus.megabytes(periodMax[i]));
        }
        out.printf(Locale.ROOT, "[soak %5.1f min] %s; %d ok, %d failed; heap MB (min-max since last line) %s%n",
                (System.nanoTime() - t0) / 60e9, what, clients.ok(), clients.failures().size(),
                String.join(" ", heaps));
        out.flush();
        resetPeriod();
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
    }
}
