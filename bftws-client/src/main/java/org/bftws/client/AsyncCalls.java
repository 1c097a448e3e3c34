package org.bftws.client;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;

/**
 * The calls of {@link BftClient#callAsync} in flight: at most {@code limit} at once, each run as a blocking call on
 * one of {@code limit} worker threads. A worker thread lives as long as the client, so through {@link CallerClients}
 * it keeps its own ServiceClient and its own WS-RM sequence per endpoint: a sequence carries one call at a time,
 * as PBFT expects of a client (one outstanding request), and at most {@code limit} sequences per endpoint are ever
 * opened. A caller beyond the limit waits in {@link #submit} until a call ends (back-pressure, not an unbounded queue).
 */
final class AsyncCalls {

    /** A blocking call: {@link BftClient#call} with its arguments. */
    interface BlockingCall {
        OMElement call() throws AxisFault;
    }

    private final int limit;
    private final Semaphore slots;
    private final ExecutorService workers;
    private final Set<CompletableFuture<OMElement>> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private volatile boolean closed;

    AsyncCalls(int limit) {
        this.limit = limit;
        this.slots = new Semaphore(limit, true);
        AtomicInteger n = new AtomicInteger();
        ThreadFactory daemons = r -> {
            Thread t = new Thread(r, "bftclient-async-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        this.workers = Executors.newFixedThreadPool(limit, daemons);
    }

    /** The most calls that were in flight at once so far (for figures and tests). */
    int peakInFlight() {
        return peak.get();
    }

    /**
     * Starts {@code call} on a worker; waits first while {@code limit} calls are in flight. Never throws: every
     * problem (closed client, interrupted wait) completes the returned future exceptionally with an AxisFault.
     */
    CompletableFuture<OMElement> submit(BlockingCall call) {
        CompletableFuture<OMElement> future = new CompletableFuture<>();
        if (closed) {
            return failed(future, "bftws: this BftClient is closed");
        }
        try {
            slots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(future, "bftws: interrupted while waiting for one of the " + limit
                    + " in-flight call slots (BftClientBuilder.maxInFlight)");
        }
        if (closed) {
            slots.release();
            return failed(future, "bftws: this BftClient is closed");
        }
        inFlight.add(future);
        peak.accumulateAndGet(running.incrementAndGet(), Math::max);
        try {
            workers.execute(() -> run(call, future));
        } catch (RejectedExecutionException e) {
            ended(future);
            return failed(future, "bftws: this BftClient is closed");
        }
        return future;
    }

    private void run(BlockingCall call, CompletableFuture<OMElement> future) {
        OMElement reply = null;
        Throwable problem = null;
        try {
            reply = call.call();
        } catch (AxisFault | RuntimeException | Error e) {
            problem = e;
        }
        // the slot is free before the future completes: a dependent stage runs on this thread right away and may
        // itself call callAsync, which must not wait for the slot its own predecessor still held
        ended(future);
        if (problem == null) {
            future.complete(reply);
        } else {
            future.completeExceptionally(problem);
        }
    }

    private void ended(CompletableFuture<OMElement> future) {
        if (inFlight.remove(future)) {
            running.decrementAndGet();
            slots.release();
        }
    }

    /**
     * Refuses new calls, waits up to {@code grace} for the calls in flight to end (each ends at its decision, or
     * when no reply can be decided any more), then fails those still running with an AxisFault that says the
     * client closed under them, and interrupts their workers.
     */
    void close(Duration grace) {
        closed = true;
        workers.shutdown();
        boolean ended;
        try {
            ended = workers.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ended = false;
        }
        if (ended) {
            return;
        }
        for (CompletableFuture<OMElement> f : List.copyOf(inFlight)) {
            f.completeExceptionally(new AxisFault("bftws: the BftClient was closed while this call was in flight"
                    + " (close() waited " + grace.toMillis() + " ms for it); the replicas may still execute it"));
        }
        workers.shutdownNow(); // interrupts the waits for replies: those threads end at once
        try {
            workers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static CompletableFuture<OMElement> failed(CompletableFuture<OMElement> future, String why) {
        future.completeExceptionally(new AxisFault(why));
        return future;
    }
}
