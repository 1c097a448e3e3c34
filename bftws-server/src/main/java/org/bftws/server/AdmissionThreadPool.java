package org.bftws.server;

import java.util.concurrent.RejectedExecutionException;

import org.bftws.axis2.monitoring.HttpAdmissionCounters;
import org.bftws.axis2.standalone.AdmissionPolicy;
import org.eclipse.jetty.util.BlockingArrayQueue;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Jetty's thread pool with the bounded admission of a node's HTTP server (docs/operations.md, "Connections"): at most
 * {@link AdmissionPolicy#workers()} threads and {@link AdmissionPolicy#maxQueued()} jobs waiting for one. Jetty's default
 * queue has no bound, so under a flood of connections it would work, long after, through connections whose clients
 * gave up. A job refused because the queue is full is counted ({@code connections refused: queue full}); Jetty then
 * closes the connection it belonged to (no 503: Jetty's jobs are not connections, and the refusal happens below HTTP).
 */
final class AdmissionThreadPool extends QueuedThreadPool {

    private final HttpAdmissionCounters counters;

    AdmissionThreadPool(AdmissionPolicy policy, HttpAdmissionCounters counters) {
        super(policy.workers(), Math.min(8, policy.workers()), 60_000,
                new BlockingArrayQueue<>(policy.maxQueued(), 0, policy.maxQueued()));
        setName("bftws-jetty");
        this.counters = counters;
        counters.watch(new HttpAdmissionCounters.Queue() {
            @Override
            public int length() {
                return getQueueSize();
            }

            @Override
            public long oldestWaitMillis() {
                return 0; // Jetty's queue holds its own jobs, without the time they were queued
            }
        });
    }

    @Override
    public void execute(Runnable job) {
        try {
            super.execute(job);
        } catch (RejectedExecutionException e) {
            if (isRunning()) {
                counters.refusedQueueFull.incrementAndGet();
            }
            throw e;
        }
    }
}
