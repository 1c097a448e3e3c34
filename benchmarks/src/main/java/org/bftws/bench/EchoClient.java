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
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.BftwsNode;
import org.bftws.axis2.client.RmSource;

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
     *                      than {@code requests} may be measured (the benchmark's time cap); zero: no limit
     */
    public record Settings(String address, int clients, int requests, int warmup, int size, long timeoutMillis,
                           Duration warmupLimit, Duration measureLimit) {
        public Settings {
            if (clients < 1 || requests < 0 || warmup < clients || size < 0 || timeoutMillis < 1
                    || warmupLimit.isNegative() || measureLimit.isNegative()) {
                throw new IllegalArgumentException("need clients >= 1, requests >= 0, warmup >= clients, size >= 0,"
                        + " timeout >= 1 ms, limits >= 0: " + clients + ", " + requests + ", " + warmup + ", "
                        + size + ", " + timeoutMillis + ", " + warmupLimit + ", " + measureLimit);
            }
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
    }

    private final ConfigurationContext context;
    private final Settings settings;
    private final String runId = UUID.randomUUID().toString().substring(0, 8);

    public EchoClient(ConfigurationContext context, Settings settings) {
        this.context = context;
        this.settings = settings;
    }

    public EchoResult run(Listener listener) throws InterruptedException {
        AtomicLong start = new AtomicLong();
        AtomicLong end = new AtomicLong();
        CyclicBarrier warmedUp = new CyclicBarrier(settings.clients(), () -> {
            listener.measuring();
            start.set(System.nanoTime());
        });
        CyclicBarrier done = new CyclicBarrier(settings.clients(), () -> {
            end.set(System.nanoTime());
            listener.measured();
        });
        Run run = new Run(listener, start);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < settings.clients(); i++) {
            int index = i;
            Thread t = new Thread(() -> run.client(index, warmedUp, done), "echo-client-" + i);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        return run.result(end.get() - start.get());
    }

    /** The shared state of one run. */
    private final class Run {
        private final Listener listener;
        private final AtomicInteger nextTicket = new AtomicInteger();
        private final AtomicInteger completed = new AtomicInteger();
        private final AtomicInteger warmupFailed = new AtomicInteger();
        private final AtomicLong measureStart;
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

        void client(int index, CyclicBarrier warmedUp, CyclicBarrier done) {
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
                if (call(client, "w" + index + "." + w) != null) {
                    warmupFailed.incrementAndGet();
                }
            }
            await(warmedUp);
            long measureEnd = deadline(measureStart.get(), settings.measureLimit());
            while (System.nanoTime() - measureEnd < 0) {
                int t = nextTicket.getAndIncrement();
                if (t >= settings.requests()) {
                    break;
                }
                long t0 = System.nanoTime();
                String problem = call(client, "m" + t);
                nanos[t] = System.nanoTime() - t0;
                if (problem == null) {
                    ok[t] = true;
                } else {
                    failures.computeIfAbsent(problem, k -> new LongAdder()).increment();
                }
                listener.completed(completed.incrementAndGet());
            }
            await(done);
            terminate(client, sequenceKey);
        }

        private ServiceClient serviceClient(String sequenceKey) throws AxisFault {
            ServiceClient client = new ServiceClient(context, null);
            Options options = new Options();
            options.setTo(new EndpointReference(settings.address()));
            options.setAction(EchoMessages.ACTION);
            options.setTimeOutInMilliSeconds(settings.timeoutMillis());
            options.setProperty(RmSource.SEQUENCE_KEY, sequenceKey);
            client.setOptions(options);
            return client;
        }

        /** One echo round trip; null when the right echo came back, else why not. */
        private String call(ServiceClient client, String tag) {
            if (client == null) {
                return "no ServiceClient";
            }
            try {
                OMElement reply = client.sendReceive(EchoMessages.request(tag, settings.size()));
                if (reply != null) {
                    reply.build();
                }
                return EchoMessages.problem(reply, tag, settings.size());
            } catch (AxisFault | RuntimeException e) {
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

        private void await(CyclicBarrier barrier) {
            try {
                barrier.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (BrokenBarrierException e) {
                notes.add("a client thread left the run early: " + e);
            }
        }

        EchoResult result(long wallNanos) {
            int good = 0;
            for (boolean b : ok) {
                good += b ? 1 : 0;
            }
            // a time limit may have left tickets unused: those requests were never sent, so they did not fail
            int issued = Math.min(nextTicket.get(), settings.requests());
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
