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
 * {@code ./bftws measure sequences --count N}: what client sequences that come and go cost the replicas. It opens N
 * WS-RM sequences on the testbed's group (64 client threads), sends one echo on each, and then terminates the even
 * ones (an ordered TerminateSequence) and abandons the odd ones (the client forgets them; the replicas expire them
 * after the group's {@code sequenceIdleLimit}, here {@value #IDLE_LIMIT}). A ticker sequence keeps batches (so the
 * agreed time, and the expiry) going throughout. Before and after, it reads every replica's live last-reply entries,
 * stable checkpoint bytes and heap in use after a full collection ({@code jcmd PID GC.run} on the replica JVMs it
 * started) from their status pages; after, once the abandoned ones expired and a checkpoint was taken since. The last
 * line: {@code sequences: N opened, E live entries, heap growth X MB, checkpoint Y KB}.
 */
final class SequenceFigures {

    static final String IDLE_LIMIT = "20s";
    private static final Duration IDLE = Duration.ofSeconds(20);
    private static final int THREADS = 64;
    private static final long CALL_TIMEOUT_MILLIS = 60_000;
    private static final Duration STATUS_TIMEOUT = Duration.ofSeconds(10);
    private static final String PROTOCOL = "<protocol sequenceIdleLimit=\"" + IDLE_LIMIT + "\" clockSkewBound=\"5s\"/>";

    private SequenceFigures() {
    }

    static void run(MeasureOptions options, PrintStream out) throws IOException, InterruptedException {
        int n = options.count();
        Path runDir = options.home().resolve("measure").resolve(LocalDateTime.now().format(
                DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)) + "-sequences").toAbsolutePath();
        // Abandoned sequences stay live for the idle limit: the per-node bound on live sequences must allow that many.
        List<String> jvm = List.of("-Dbftws.maxSequences=" + Math.max(1000, Math.min(n, 200_000)));
        out.println("sequences: " + n + " sequences on " + THREADS + " client threads, even ones terminated, odd ones "
                + "abandoned; sequenceIdleLimit " + IDLE_LIMIT + ", replicas -Xmx" + Soak.HEAP);
        long t0 = System.nanoTime();
        boolean passed = false;
        try (ReplicaGroup group = ReplicaGroup.start(new ReplicaGroup.Settings(runDir,
                options.home().resolve("testbed").resolve("keys"), options.security(), PROTOCOL, false, jvm,
                Soak.HEAP));
             AppendClients clients = AppendClients.open(group.replicasXml(), TestbedDeployment.CLIENT,
                     runDir.resolve("client"), TestbedDeployment.GROUP_ENDPOINT, CALL_TIMEOUT_MILLIS)) {
            Ticker ticker = new Ticker(clients);
            ticker.start();
            try {
                Snapshot before = settledSnapshot(group, ticker, -1, out, "before");
                out.println("sequences: before: " + before);
                Peak peak = new Peak();
                long started = System.nanoTime();
                int[] opened = churn(clients, n, group, peak, out);
                long churned = System.nanoTime() - started;
                out.printf(Locale.ROOT, "sequences: %d opened (%d terminated, %d abandoned, %d failed) in %.0f s (%.0f/s);"
                                + " peak %d live entries, checkpoint %s, heap %d MB%n", opened[0], opened[1], opened[2],
                        opened[3], churned / 1e9, opened[0] / (churned / 1e9), peak.entries.get(),
                        ReplicaTimings.bytes(peak.checkpointBytes.get()),
                        ReplicaStatus.megabytes(peak.heap.get()));
                // the abandoned ones expire once idle for the limit (and the ended ones are forgotten by then)
                Thread.sleep(IDLE.toMillis() + 2_000);
                Snapshot after = settledSnapshot(group, ticker, before.entries(), out, "after");
                out.println("sequences: after: " + after + " (" + seconds(System.nanoTime() - t0) + " s in all)");
                out.println(resultLine(opened[0], after.entries(), after.heapBytes() - before.heapBytes(),
                        after.checkpointBytes()));
                out.println("sequences: live entries " + (after.entries() == before.entries() ? "back to " : "not back to ")
                        + before.entries() + ", checkpoint " + ReplicaTimings.bytes(after.checkpointBytes()) + " against "
                        + ReplicaTimings.bytes(before.checkpointBytes()) + " before");
                passed = opened[3] == 0;
            } finally {
                ticker.stop();
            }
        } finally {
            if (passed && !options.keep()) {
                Testbed.deleteQuietly(runDir);
            } else {
                out.println("sequences: run directory kept: " + runDir);
            }
        }
        if (!passed) {
            throw new IllegalStateException("some sequences failed (see above)");
        }
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
     * Opens {@code n} sequences on {@value #THREADS} threads; returns {opened, terminated, abandoned, failed}.
     * Polls the replicas' figures for the peaks meanwhile.
     */
    private static int[] churn(AppendClients clients, int n, ReplicaGroup group, Peak peak, PrintStream out)
            throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger terminated = new AtomicInteger();
        AtomicInteger abandoned = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        List<String> problems = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread thread = new Thread(() -> {
                for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                    String key = "q-" + i;
                    try {
                        ServiceClient client = serviceClient(clients, key);
                        OMElement reply = client.sendReceive(EchoMessages.request(key, 1));
                        reply.build();
                        client.cleanup();
                        if (i % 2 == 0) {
                            BftwsNode.of(clients.context()).source().terminate(clients.address(), key);
                            terminated.incrementAndGet();
                        } else {
                            BftwsNode.of(clients.context()).source().sequences()
                                    .remove(org.bftws.axis2.rm.ClientSequences.key(clients.address(), key));
                            abandoned.incrementAndGet();
                        }
                    } catch (AxisFault | RuntimeException e) {
                        failed.incrementAndGet();
                        if (problems.size() < 5) {
                            problems.add(key + ": " + e.getMessage());
                        }
                        BftwsNode.of(clients.context()).source().sequences()
                                .remove(org.bftws.axis2.rm.ClientSequences.key(clients.address(), key));
                    }
                }
            }, "sequences-" + t);
            threads.add(thread);
            thread.start();
        }
        int reported = 0;
        while (threads.stream().anyMatch(Thread::isAlive)) {
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
