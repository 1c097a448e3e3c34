package org.bftws.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.rm.RmSource;

/**
 * {@code ./bftws measure sequences --count N}: what endless clients cost the replicas. The client party
 * {@value TestbedDeployment#CLIENT} opens N WS-RM sequences one after another on the testbed's group ({@value #THREADS}
 * client threads), sends one echo on each and then terminates it (an ordered TerminateSequence) or abandons it (the
 * client forgets it; the replicas expire it after the group's {@code sequenceIdleLimit}, here {@value #IDLE_LIMIT}),
 * as clients that come and go forever do. A party may hold at most {@code maxSequencesPerClient} live sequences on a
 * node (replicas.xml {@code <limits>}, 256 by default), and an abandoned one stays live until it expires, so the party
 * keeps to its limit as such a client must ({@link Room}): it abandons every other sequence while the ones it
 * abandoned earlier leave room for it to linger until it expires, and terminates the rest. A ticker sequence keeps
 * batches (so the agreed time, and the expiry) going throughout. Before and after, it reads every replica's live
 * last-reply entries, stable checkpoint bytes and heap in use after a full collection ({@code jcmd PID GC.run} on the
 * replica JVMs it started) from their status pages; after, once the abandoned ones expired and a checkpoint was taken
 * since. The run fails unless every sequence was served, no replica refused one of the party's sequences for its
 * limit, and the live entries came back to what they were before. The last line: {@code sequences: N opened, E live
 * entries, heap growth X MB, checkpoint Y KB}. With {@code --quick} a smoke run: idle limit {@value #QUICK_IDLE_LIMIT},
 * a checkpoint every {@value #QUICK_CHECKPOINT_INTERVAL} batches and a limit of {@value #QUICK_PARTY_LIMIT} sequences
 * per party, so that a few hundred sequences meet the limit and a short wait sees them expire.
 */
final class SequenceFigures {

    static final String IDLE_LIMIT = "20s";
    private static final int THREADS = 32;
    static final String QUICK_IDLE_LIMIT = "8s";
    static final int QUICK_CHECKPOINT_INTERVAL = 16;
    static final int QUICK_PARTY_LIMIT = 48;
    private static final int QUICK_THREADS = 8;
    private static final long CALL_TIMEOUT_MILLIS = 60_000;
    private static final Duration STATUS_TIMEOUT = Duration.ofSeconds(10);

    /** What a run asks of the group: its {@code <protocol>} and {@code <limits>}, the idle limit, client threads. */
    record Setup(String groupElements, Duration idle, int threads) {

        static Setup of(boolean quick) {
            return quick
                    ? new Setup("<protocol sequenceIdleLimit=\"" + QUICK_IDLE_LIMIT + "\" clockSkewBound=\"2s\""
                            + " checkpointInterval=\"" + QUICK_CHECKPOINT_INTERVAL + "\" watermarkWindow=\""
                            + 4 * QUICK_CHECKPOINT_INTERVAL + "\"/>\n    <limits maxSequencesPerClient=\""
                            + QUICK_PARTY_LIMIT + "\"/>", Duration.ofSeconds(8), QUICK_THREADS)
                    : new Setup("<protocol sequenceIdleLimit=\"" + IDLE_LIMIT + "\" clockSkewBound=\"5s\"/>",
                            Duration.ofSeconds(20), THREADS);
        }
    }

    private SequenceFigures() {
    }

    static void run(MeasureOptions options, PrintStream out) throws IOException, InterruptedException {
        int n = options.count();
        Setup setup = Setup.of(options.quick());
        Path runDir = options.home().resolve("measure").resolve(LocalDateTime.now().format(
                DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)) + "-sequences").toAbsolutePath();
        long t0 = System.nanoTime();
        boolean passed = false;
        try (ReplicaGroup group = ReplicaGroup.start(new ReplicaGroup.Settings(runDir,
                options.home().resolve("testbed").resolve("keys"), options.security(), setup.groupElements(), false,
                List.of(), Soak.HEAP));
             AppendClients clients = AppendClients.open(group.replicasXml(), TestbedDeployment.CLIENT,
                     runDir.resolve("client"), TestbedDeployment.GROUP_ENDPOINT, CALL_TIMEOUT_MILLIS)) {
            int limit = org.bftws.config.ReplicasConfigReader.read(group.replicasXml(),
                    org.bftws.config.KeyFileCheck.none()).groups().get(0).limits().maxSequencesPerClient();
            Room room = new Room(limit, setup.threads(), setup.idle());
            out.println("sequences: " + n + " sequences of client party " + TestbedDeployment.CLIENT + " on "
                    + setup.threads() + " threads, at most " + limit + " live per node (maxSequencesPerClient): every "
                    + "other one abandoned while " + room.lingering + " abandoned ones may linger until they expire, the"
                    + " rest terminated; sequenceIdleLimit " + text(setup.idle()) + ", replicas -Xmx" + Soak.HEAP);
            Ticker ticker = new Ticker(clients);
            ticker.start();
            try {
                long refusedBefore = partyLimitRefusals(group);
                Snapshot before = settledSnapshot(group, ticker, -1, out, "before");
                out.println("sequences: before: " + before);
                Peak peak = new Peak();
                long started = System.nanoTime();
                int[] opened = churn(clients, n, group, peak, room, setup.threads(), out);
                long churned = System.nanoTime() - started;
                out.printf(Locale.ROOT, "sequences: %d opened (%d terminated, %d abandoned, %d failed) in %.0f s (%.0f/s);"
                                + " peak %d live entries, checkpoint %s, heap %d MB%n", opened[0], opened[1], opened[2],
                        opened[3], churned / 1e9, opened[0] / (churned / 1e9), peak.entries.get(),
                        ReplicaTimings.bytes(peak.checkpointBytes.get()),
                        ReplicaStatus.megabytes(peak.heap.get()));
                // the abandoned ones expire once idle for the limit (and the ended ones are forgotten by then)
                room.awaitExpired();
                Snapshot after = settledSnapshot(group, ticker, before.entries(), out, "after");
                long refused = partyLimitRefusals(group) - refusedBefore;
                out.println("sequences: after: " + after + " (" + seconds(System.nanoTime() - t0) + " s in all)");
                out.println(resultLine(opened[0], after.entries(), after.heapBytes() - before.heapBytes(),
                        after.checkpointBytes()));
                boolean back = after.entries() == before.entries();
                out.println("sequences: live entries " + (back ? "back to " : "not back to ") + before.entries()
                        + ", checkpoint " + ReplicaTimings.bytes(after.checkpointBytes()) + " against "
                        + ReplicaTimings.bytes(before.checkpointBytes()) + " before; " + refused + " sequences refused"
                        + " for the party's limit");
                List<String> problems = new ArrayList<>();
                if (opened[3] > 0) {
                    problems.add(opened[3] + " sequences failed");
                }
                if (refused != 0) {
                    problems.add(refused + " sequences refused for the party's limit");
                }
                if (!back) {
                    problems.add("live entries " + after.entries() + ", not back to " + before.entries());
                }
                if (!problems.isEmpty()) {
                    throw new IllegalStateException(String.join(", ", problems) + " (see above)");
                }
                passed = true;
            } finally {
                ticker.stop();
                room.close();
            }
        } finally {
            if (passed && !options.keep()) {
                Testbed.deleteQuietly(runDir);
            } else {
                out.println("sequences: run directory kept: " + runDir);
            }
        }
    }

    private static String text(Duration d) {
        return d.toSeconds() + "s";
    }

    /**
     * Every replica's count of sequences it refused because their party held its maximum (status page counter
     * {@code sequences refused: the party holds its maximum}), summed. A replica that does not say fails the run: a
     * count it could not read would pass for none refused.
     */
    private static long partyLimitRefusals(ReplicaGroup group) {
        String counter = "sequences refused: the party holds its maximum";
        long sum = 0;
        for (int i = 0; i < ReplicaGroup.SIZE; i++) {
            int replica = i;
            sum += ReplicaStatus.counter(group.port(i), counter, STATUS_TIMEOUT).orElseThrow(() ->
                    new IllegalStateException(ReplicaGroup.name(replica) + "'s status page did not give '" + counter
                            + "' within " + STATUS_TIMEOUT.toSeconds() + " s"));
        }
        return sum;
    }

    /** The result line. */
    static String resultLine(int opened, long entries, long heapGrowthBytes, long checkpointBytes) {
        return String.format(Locale.ROOT, "sequences: %d opened, %d live entries, heap growth %.1f MB, checkpoint %.1f KB",
                opened, entries, heapGrowthBytes / (1024.0 * 1024.0), checkpointBytes / 1024.0);
    }

    /**
     * Every replica's figures (the largest of each), once they agree on the entries ({@code entries} when not -1) and
     * each holds a stable checkpoint taken after this call began. Heap is read after a full collection.
     */
    private static Snapshot settledSnapshot(ReplicaGroup group, Ticker ticker, long entries, PrintStream out,
                                            String when) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        long[] since = new long[ReplicaGroup.SIZE];
        for (int i = 0; i < ReplicaGroup.SIZE; i++) {
            since[i] = ReplicaStatus.read(group.port(i), STATUS_TIMEOUT).map(ReplicaStatus::stableCheckpoint).orElse(0L);
        }
        while (true) {
            Thread.sleep(2_000);
            List<ReplicaStatus> all = new ArrayList<>();
            for (int i = 0; i < ReplicaGroup.SIZE; i++) {
                ReplicaStatus.read(group.port(i), STATUS_TIMEOUT).ifPresent(all::add);
            }
            boolean done = all.size() == ReplicaGroup.SIZE;
            for (int i = 0; done && i < ReplicaGroup.SIZE; i++) {
                ReplicaStatus s = all.get(i);
                done = s.stableCheckpoint() > since[i] && s.stableCheckpointBytes() > 0
                        && (entries < 0 ? s.replyEntries() == all.get(0).replyEntries() : s.replyEntries() <= entries);
            }
            if (done || System.nanoTime() > deadline) {
                if (!done) {
                    out.println("sequences: " + when + ": not settled after 5 min (ticker " + ticker.calls.get()
                            + " calls, " + ticker.failures.get() + " failed): " + all);
                }
                long heap = 0;
                for (int i = 0; i < ReplicaGroup.SIZE; i++) {
                    heap = Math.max(heap, group.liveHeapBytes(i));
                }
                return new Snapshot(all.stream().mapToLong(ReplicaStatus::replyEntries).max().orElse(-1),
                        all.stream().mapToLong(ReplicaStatus::stableCheckpointBytes).max().orElse(-1), heap);
            }
        }
    }

    /**
     * Opens {@code n} sequences on {@code threads} threads, each taking room for its sequence first; returns
     * {opened, terminated, abandoned, failed}. Polls the replicas' figures for the peaks meanwhile.
     */
    private static int[] churn(AppendClients clients, int n, ReplicaGroup group, Peak peak, Room room, int threads,
                               PrintStream out) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger terminated = new AtomicInteger();
        AtomicInteger abandoned = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        List<String> problems = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                        String key = "q-" + i;
                        room.take();
                        try {
                            ServiceClient client = serviceClient(clients, key);
                            OMElement reply = client.sendReceive(EchoMessages.request(key, 1));
                            reply.build();
                            client.cleanup();
                            if (i % 2 == 1 && room.abandon()) {
                                BftwsNode.of(clients.context()).source().sequences()
                                        .remove(org.bftws.axis2.rm.ClientSequences.key(clients.address(), key));
                                abandoned.incrementAndGet();
                            } else {
                                BftwsNode.of(clients.context()).source().terminate(clients.address(), key);
                                room.ended();
                                terminated.incrementAndGet();
                            }
                        } catch (AxisFault | RuntimeException e) {
                            failed.incrementAndGet();
                            if (problems.size() < 5) {
                                problems.add(key + ": " + e.getMessage());
                            }
                            BftwsNode.of(clients.context()).source().sequences()
                                    .remove(org.bftws.axis2.rm.ClientSequences.key(clients.address(), key));
                            room.lost(); // it may live on at the replicas until it expires
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "sequences-" + t);
            running.add(thread);
            thread.start();
        }
        int reported = 0;
        while (running.stream().anyMatch(Thread::isAlive)) {
            Thread.sleep(2_000);
            for (int i = 0; i < ReplicaGroup.SIZE; i++) {
                ReplicaStatus.read(group.port(i), STATUS_TIMEOUT).ifPresent(peak::see);
            }
            int done = terminated.get() + abandoned.get() + failed.get();
            if (done >= reported + Math.max(1, n / 10)) {
                reported = done;
                out.println("sequences: " + done + " of " + n + " done, " + failed.get() + " failed; live entries "
                        + peak.last.get() + ", load average " + MeasureMain.loadAverage());
            }
        }
        problems.forEach(p -> out.println("sequences: failed " + p));
        int opened = terminated.get() + abandoned.get();
        return new int[] {opened, terminated.get(), abandoned.get(), failed.get()};
    }

    /**
     * The client party's own account of the sequences it may still hold on a node, so that it never holds more than
     * its limit there: one sequence of room is taken before a sequence is opened and given back once the replicas
     * have surely forgotten it: at once when its TerminateSequence was answered, or the idle limit (plus a margin
     * for the agreed time and a slow replica) after its last message when it was abandoned (or failed). Room is kept
     * for the ticker and for terminated sequences a slow replica still holds; abandoned ones may take what the
     * threads in flight leave.
     */
    static final class Room implements AutoCloseable {
        /** How long after its last message an abandoned sequence is surely expired at every replica. */
        final Duration gone;
        /** At most this many abandoned sequences linger. */
        final int lingering;
        private final Semaphore room;
        private final AtomicInteger abandoned = new AtomicInteger();
        private final java.util.concurrent.ScheduledExecutorService expiry =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "sequences-expiry");
                    t.setDaemon(true);
                    return t;
                });
        private volatile long lastExpiryNanos = System.nanoTime();

        Room(int limit, int threads, Duration idle) {
            // one for the ticker, an eighth for sequences a slow replica has not yet terminated
            int total = limit - 1 - Math.max(2, limit / 8);
            if (total <= threads) {
                throw new IllegalArgumentException("a party limit of " + limit + " sequences leaves no room for "
                        + threads + " client threads");
            }
            this.room = new Semaphore(total);
            this.lingering = total - threads;
            this.gone = idle.plus(idle.dividedBy(4)).plusSeconds(2);
        }

        /** Waits for room for one more sequence. */
        void take() throws InterruptedException {
            room.acquire();
        }

        /** Whether the sequence just used may be abandoned; if so its room comes back once it has expired. */
        boolean abandon() {
            if (abandoned.incrementAndGet() > lingering) {
                abandoned.decrementAndGet();
                return false;
            }
            expireLater(true);
            return true;
        }

        /** Its TerminateSequence was answered. */
        void ended() {
            room.release();
        }

        /** It failed: the replicas may hold it until it expires. */
        void lost() {
            expireLater(false);
        }

        private void expireLater(boolean counted) {
            long at = System.nanoTime() + gone.toNanos();
            lastExpiryNanos = Math.max(lastExpiryNanos, at);
            expiry.schedule(() -> {
                if (counted) {
                    abandoned.decrementAndGet();
                }
                room.release();
            }, gone.toMillis(), TimeUnit.MILLISECONDS);
        }

        /** Waits until the last sequence abandoned (or lost) is surely expired. */
        void awaitExpired() throws InterruptedException {
            long left = lastExpiryNanos - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.sleep(left);
            }
        }

        @Override
        public void close() {
            expiry.shutdownNow();
        }
    }

    private static ServiceClient serviceClient(AppendClients clients, String key) throws AxisFault {
        ServiceClient client = new ServiceClient(clients.context(), null);
        Options options = new Options();
        options.setTo(new EndpointReference(clients.address()));
        options.setAction(EchoMessages.ACTION);
        options.setTimeOutInMilliSeconds(CALL_TIMEOUT_MILLIS);
        options.setProperty(RmSource.SEQUENCE_KEY, key);
        client.setOptions(options);
        return client;
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.0f", nanos / 1e9);
    }

    /** The largest figures of the replicas at one moment. */
    record Snapshot(long entries, long checkpointBytes, long heapBytes) {
        @Override
        public String toString() {
            return entries + " live entries, checkpoint " + ReplicaTimings.bytes(checkpointBytes) + ", heap after a "
                    + "full collection " + String.format(Locale.ROOT, "%.1f", heapBytes / (1024.0 * 1024.0)) + " MB";
        }
    }

    /** The highest figures seen while sequences were opened. */
    private static final class Peak {
        final AtomicLong entries = new AtomicLong();
        final AtomicLong last = new AtomicLong();
        final AtomicLong checkpointBytes = new AtomicLong();
        final AtomicLong heap = new AtomicLong();

        void see(ReplicaStatus s) {
            entries.accumulateAndGet(s.replyEntries(), Math::max);
            last.set(s.replyEntries());
            checkpointBytes.accumulateAndGet(s.stableCheckpointBytes(), Math::max);
            heap.accumulateAndGet(s.heapUsedBytes(), Math::max);
        }
    }

    /**
     * One sequence calling echo without pause: batches keep executing, so the agreed time moves and idle sequences
     * expire, and checkpoints keep being taken. Its own entry is live before and after.
     */
    private static final class Ticker {
        private final AppendClients clients;
        private final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong calls = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        private Thread thread;

        Ticker(AppendClients clients) {
            this.clients = clients;
        }

        void start() {
            thread = new Thread(() -> {
                try {
                    ServiceClient client = serviceClient(clients, "ticker");
                    while (running.get()) {
                        try {
                            client.sendReceive(EchoMessages.request("tick", 1)).build();
                            calls.incrementAndGet();
                            Thread.sleep(20);
                        } catch (AxisFault | RuntimeException e) {
                            failures.incrementAndGet();
                        }
                    }
                } catch (AxisFault e) {
                    failures.incrementAndGet();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "sequences-ticker");
            thread.start();
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join(CALL_TIMEOUT_MILLIS + 10_000);
        }
    }
}
