package org.bftws.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.rm.RmSource;

/**
 * The echo benchmark client (paper section 4): C threads call the echo service through Axis2's ServiceClient with
 * the bftws module engaged (the plain route: multicast to the group, WS-RM, signing, f+1 matching replies), each
 * thread on its own WS-RM sequence, without think time. After a warm-up (which also creates the sequences) the
 * threads share N measured requests; every reply is checked item by item and every request timed with nanoTime.
 * Thread-safe use: one run at a time.
 */
public final class EchoClient {

    /**
     * @param address       where requests go: a group endpoint of replicas.xml (or a node's own URL)
     * @param clients       threads, each with its own sequence
     * @param requests      measured requests in total
     * @param warmup        warm-up requests in total, at least one per thread
     * @param size          XML elements per request
     * @param timeoutMillis the ServiceClient timeout of one request
     * @param warmupLimit   each thread stops its warm-up after this long (its first request, which creates its
     *                      sequence, always runs); zero: no limit
     * @param measureLimit  no measured request starts once this much of the measured phase has passed, so fewer
     *                      than {@code requests} may be measured (the benchmark's time cap); requests still in flight
     *                      get as long again, then the measured phase ends without them (they count as failed);
     *                      zero: no limit
     * @param settleLimit   with a measure limit: how long requests still in flight at that limit get before the
     *                      measured phase ends without them (the measure limit itself unless said otherwise)
     */
    public record Settings(String address, int clients, int requests, int warmup, int size, long timeoutMillis,
                           Duration warmupLimit, Duration measureLimit, Duration settleLimit) {
        public Settings {
            if (clients < 1 || requests < 0 || warmup < clients || size < 0 || timeoutMillis < 1
                    || warmupLimit.isNegative() || measureLimit.isNegative() || settleLimit.isNegative()) {
                throw new IllegalArgumentException("need clients >= 1, requests >= 0, warmup >= clients, size >= 0,"
                        + " timeout >= 1 ms, limits >= 0: " + clients + ", " + requests + ", " + warmup + ", "
                        + size + ", " + timeoutMillis + ", " + warmupLimit + ", " + measureLimit + ", " + settleLimit);
            }
        }

        /** In-flight requests at the measure limit get as long again as the limit. */
        public Settings(String address, int clients, int requests, int warmup, int size, long timeoutMillis,
                        Duration warmupLimit, Duration measureLimit) {
            this(address, clients, requests, warmup, size, timeoutMillis, warmupLimit, measureLimit, measureLimit);
        }

        /** Without time limits: every warm-up and measured request runs. */
        public Settings(String address, int clients, int requests, int warmup, int size, long timeoutMillis) {
            this(address, clients, requests, warmup, size, timeoutMillis, Duration.ZERO, Duration.ZERO);
        }
    }

    /** Told about the run's phases, on a client thread; must return quickly (it is inside the measured time). */
    public interface Listener {
        /** Every thread finished its warm-up; the first measured request follows. */
        default void measuring() {
        }

        /** {@code count} measured requests have completed (successfully or not). */
        default void completed(int count) {
        }

        /** The last measured request completed; sequences are terminated after this. */
        default void measured() {
        }

        /**
         * A measured request sent at {@code startNanos} (nanoTime) ended at {@code endNanos} with the right answer
         * ({@code ok}) or not; called before {@link #completed}.
         */
        default void answered(long startNanos, long endNanos, boolean ok) {
        }
    }

    /**
     * What the client threads send and how a reply is checked: the echo by default ({@link EchoMessages}); the
     * testbed's {@code --service kv} uses {@link KvLoad}. Each thread calls it with its own index only.
     */
    public interface Workload {
        /** The next request of client thread {@code client}, for the call named {@code tag}. */
        OMElement request(int client, String tag);

        /** Null when {@code reply} is the right answer to {@code request} (call {@code tag}), else what is wrong. */
        String problem(int client, String tag, OMElement request, OMElement reply);

        /** Null when {@code fault} is a right answer to {@code request} (a deterministic refusal), else the problem. */
        default String problem(int client, String tag, OMElement request, AxisFault fault) {
            return fault.getMessage() == null ? fault.toString() : fault.getMessage();
        }
    }

    /** The paper's echo: {@code size} items, returned in order. */
    static Workload echo(int size) {
        return new Workload() {
            @Override
            public OMElement request(int client, String tag) {
                return EchoMessages.request(tag, size);
            }

            @Override
            public String problem(int client, String tag, OMElement request, OMElement reply) {
                return EchoMessages.problem(reply, tag, size);
            }
        };
    }

    private final ConfigurationContext context;
    private final Settings settings;
    private final Workload workload;
    private final String runId = UUID.randomUUID().toString().substring(0, 8);

    public EchoClient(ConfigurationContext context, Settings settings) {
        this(context, settings, echo(settings.size()));
    }

    public EchoClient(ConfigurationContext context, Settings settings, Workload workload) {
        this.context = context;
        this.settings = settings;
        this.workload = workload;
    }

    /** How long to wait for the threads that were not in a request when the measured phase ended. */
    private static final long SETTLE_MILLIS = 2_000;
    /** Beyond twice the warm-up cap, how long a slow first request (it opens the sequence) may take. */
    private static final Duration WARMUP_GRACE = Duration.ofSeconds(10);

    public EchoResult run(Listener listener) throws InterruptedException {
        AtomicLong start = new AtomicLong();
        CountDownLatch measuring = new CountDownLatch(1);
        CyclicBarrier warmedUp = new CyclicBarrier(settings.clients(), () -> {
            listener.measuring();
            start.set(System.nanoTime());
            measuring.countDown();
        });
        Run run = new Run(listener, start);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < settings.clients(); i++) {
            int index = i;
            Thread t = new Thread(() -> run.client(index, warmedUp), "echo-client-" + i);
            t.setDaemon(true); // a request abandoned at the hard end must not keep the JVM alive
            threads.add(t);
            t.start();
        }
        // with time caps, each phase ends at twice its cap at the latest (the warm-up, whose first requests create
        // the sequences, WARMUP_GRACE later; the measured phase at its cap and its settle limit): a request stuck in a degraded setup (retransmissions, view changes)
        // must not hold the suite for its whole timeout
        long warmupHardEnd = settings.warmupLimit().isZero() ? Long.MAX_VALUE
                : System.nanoTime() + 2 * settings.warmupLimit().toNanos() + WARMUP_GRACE.toNanos();
        while (!measuring.await(100, TimeUnit.MILLISECONDS)) {
            if (threads.stream().noneMatch(Thread::isAlive)) {
                return run.result(); // every thread left before measuring (a barrier broke): nothing measured
            }
            if (System.nanoTime() - warmupHardEnd > 0) {
                run.abandonWarmup();
                warmedUp.reset();
                return run.result();
            }
        }
        if (settings.measureLimit().isZero()) {
            for (Thread t : threads) {
                t.join();
            }
            return run.result();
        }
        long hardEnd = start.get() + settings.measureLimit().toNanos() + settings.settleLimit().toNanos();
        if (!run.allMeasured.await(Math.max(0, hardEnd - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            // the late threads are not interrupted: an interrupt inside Axis2's HTTP sender could spoil the pooled
            // connections the setup's next point reuses; they finish in the background, their answers ignored
            run.endMeasuring();
        }
        for (Thread t : threads) {
            t.join(SETTLE_MILLIS);
        }
        return run.result();
    }

    /** The shared state of one run. */
    private final class Run {
        private final Listener listener;
        private final AtomicInteger nextTicket = new AtomicInteger();
        private final AtomicInteger completed = new AtomicInteger();
        private final AtomicInteger warmupFailed = new AtomicInteger();
        private final AtomicLong measureStart;
        private final AtomicLong measureEnd = new AtomicLong();
        /** Counted down once the measured phase has ended (every thread done, or the hard end reached). */
        final CountDownLatch allMeasured = new CountDownLatch(1);
        private final AtomicInteger measuringThreads = new AtomicInteger(settings.clients());
        /** Guards the results against a request that completes after the measured phase ended. */
        private final Object lock = new Object();
        private boolean ended;
        private volatile boolean warmupAbandoned;
        private int recorded;
        private final long[] nanos = new long[settings.requests()];
        private final boolean[] ok = new boolean[settings.requests()];
        private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
        private final List<String> notes = Collections.synchronizedList(new ArrayList<>());

        Run(Listener listener, AtomicLong measureStart) {
            this.listener = listener;
            this.measureStart = measureStart;
        }

        /** {@code limit} after {@code from} in nanoTime; a limit of zero is practically none (about 146 years). */
        private static long deadline(long from, Duration limit) {
            return from + (limit.isZero() ? Long.MAX_VALUE / 2 : limit.toNanos());
        }

        void client(int index, CyclicBarrier warmedUp) {
            String sequenceKey = "echo-" + runId + "-" + index;
            ServiceClient client = null;
            try {
                client = serviceClient(sequenceKey);
            } catch (AxisFault e) {
                notes.add("client thread " + index + " could not create its ServiceClient: " + e.getMessage());
            }
            int clients = settings.clients();
            int share = settings.warmup() / clients + (index < settings.warmup() % clients ? 1 : 0);
            long warmupEnd = deadline(System.nanoTime(), settings.warmupLimit());
            for (int w = 0; w < share && (w == 0 || System.nanoTime() - warmupEnd < 0); w++) {
                if (call(client, index, "w" + index + "." + w) != null) {
                    warmupFailed.incrementAndGet();
                }
            }
            if (warmupAbandoned || !await(warmedUp)) {
                return;
            }
            long lastStart = deadline(measureStart.get(), settings.measureLimit());
            while (System.nanoTime() - lastStart < 0 && !hasEnded()) {
                int t = nextTicket.getAndIncrement();
                if (t >= settings.requests()) {
                    break;
                }
                long t0 = System.nanoTime();
                String problem = call(client, index, "m" + t);
                long took = System.nanoTime() - t0;
                synchronized (lock) {
                    if (ended) {
                        break; // answered after the hard end: not part of the measured phase
                    }
                    nanos[t] = took;
                    ok[t] = problem == null;
                    recorded++;
                    if (problem != null) {
                        failures.computeIfAbsent(problem, k -> new LongAdder()).increment();
                    }
                }
                listener.answered(t0, t0 + took, problem == null);
                listener.completed(completed.incrementAndGet());
            }
            if (measuringThreads.decrementAndGet() == 0) {
                endMeasuring();
            }
            try {
                allMeasured.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            terminate(client, sequenceKey);
        }

        private boolean hasEnded() {
            synchronized (lock) {
                return ended;
            }
        }

        /** The warm-up took too long: nothing is measured, threads still warming up leave when they can. */
        void abandonWarmup() {
            warmupAbandoned = true;
            notes.add("the warm-up did not end within twice its cap and " + WARMUP_GRACE.toSeconds()
                    + " s: nothing measured");
        }

        /** Ends the measured phase once: its wall time and the listener's end; later completions are ignored. */
        void endMeasuring() {
            synchronized (lock) {
                if (ended) {
                    return;
                }
                ended = true;
                measureEnd.set(System.nanoTime());
            }
            listener.measured();
            allMeasured.countDown();
        }

        private ServiceClient serviceClient(String sequenceKey) throws AxisFault {
            ServiceClient client = new ServiceClient(context, null);
            Options options = new Options();
            options.setTo(new EndpointReference(settings.address()));
            options.setTimeOutInMilliSeconds(settings.timeoutMillis());
            options.setProperty(RmSource.SEQUENCE_KEY, sequenceKey);
            client.setOptions(options);
            return client;
        }

        /** One round trip; null when the right answer came back, else why not. */
        private String call(ServiceClient client, int index, String tag) {
            if (client == null) {
                return "no ServiceClient";
            }
            OMElement request = workload.request(index, tag);
            try {
                // the operation's wsa:Action, as a WSDL-generated client sends it: NS/operation for both samples
                client.getOptions().setAction(request.getNamespaceURI() + "/" + request.getLocalName());
                OMElement reply = client.sendReceive(request);
                if (reply != null) {
                    reply.build();
                }
                return workload.problem(index, tag, request, reply);
            } catch (AxisFault e) {
                String problem = workload.problem(index, tag, request, e);
                return problem == null || problem.length() <= 300 ? problem : problem.substring(0, 300) + "...";
            } catch (RuntimeException e) {
                String m = e.getMessage() == null ? e.toString() : e.getMessage();
                return m.length() > 300 ? m.substring(0, 300) + "..." : m;
            }
        }

        private void terminate(ServiceClient client, String sequenceKey) {
            if (client == null) {
                return;
            }
            try {
                BftwsNode.of(context).source().terminate(settings.address(), sequenceKey);
            } catch (AxisFault | RuntimeException e) {
                notes.add("could not terminate sequence " + sequenceKey + ": " + e.getMessage());
            }
            try {
                client.cleanup();
            } catch (AxisFault e) {
                notes.add("ServiceClient cleanup failed: " + e.getMessage());
            }
        }

        /** False when the run cannot go on (interrupted, or another thread left the barrier). */
        private boolean await(CyclicBarrier barrier) {
            try {
                barrier.await();
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (BrokenBarrierException e) {
                if (!warmupAbandoned) {
                    notes.add("a client thread left the run early: " + e);
                }
            }
            return false;
        }

        EchoResult result() {
            long wallNanos;
            int good = 0;
            int issued;
            synchronized (lock) {
                ended = true;
                wallNanos = measureEnd.get() == 0 ? 0 : measureEnd.get() - measureStart.get();
                for (boolean b : ok) {
                    good += b ? 1 : 0;
                }
                // a time limit may have left tickets unused: those requests were never sent, so they did not fail
                issued = Math.min(nextTicket.get(), settings.requests());
                int unanswered = issued - recorded;
                if (unanswered > 0) {
                    failures.computeIfAbsent("no answer when the measured phase ended (its time cap and as long"
                            + " again): abandoned", k -> new LongAdder()).add(unanswered);
                }
            }
            long[] okNanos = new long[good];
            for (int i = 0, j = 0; i < ok.length; i++) {
                if (ok[i]) {
                    okNanos[j++] = nanos[i];
                }
            }
            Map<String, Long> reasons = new TreeMap<>();
            failures.forEach((k, v) -> reasons.put(k, v.sum()));
            return new EchoResult(good, issued - good, warmupFailed.get(), okNanos, wallNanos, reasons,
                    List.copyOf(notes));
        }
    }
}
