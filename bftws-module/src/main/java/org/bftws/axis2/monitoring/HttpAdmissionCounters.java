package org.bftws.axis2.monitoring;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.axis2.context.ConfigurationContext;

/**
 * What a node's HTTP server did with the connections it accepted (replicas.xml {@code <limits>}
 * {@code maxQueuedConnections} and {@code staleConnectionAfter}): how many waited for a worker and were served, how many
 * were answered 503 at once because the queue was full, how many were closed unread because they waited longer than
 * their client does; and, live, how many wait now and for how long the oldest has. One per Axis2 node (kept in its
 * ConfigurationContext): the server counts, the status page and the {@code Node} MBean read.
 */
public final class HttpAdmissionCounters {

    /** ConfigurationContext property under which a node's counters are kept. */
    public static final String PROPERTY = "bftws.httpAdmission";

    /** The live queue of connections waiting for a worker, as the server sees it. */
    public interface Queue {
        /** Connections accepted and waiting for a worker. */
        int length();

        /** How long the oldest waiting connection has waited, in ms; 0 when none waits or it is not known. */
        long oldestWaitMillis();
    }

    private static final Object LOCK = new Object();

    private static final Queue NONE = new Queue() {
        @Override
        public int length() {
            return 0;
        }

        @Override
        public long oldestWaitMillis() {
            return 0;
        }
    };

    /** Connections handed to a worker (served). */
    public final AtomicLong served = new AtomicLong();
    /** Connections answered with the constant 503 and closed because the queue was full (or the server stopping). */
    public final AtomicLong refusedQueueFull = new AtomicLong();
    /** Connections closed unread because they waited for a worker longer than staleConnectionAfter. */
    public final AtomicLong staleDropped = new AtomicLong();
    /**
     * Connections to an HTTPS port closed because their TLS handshake failed: a plaintext request, a certificate the
     * node refused (the log names the party and why), no client certificate where one is required, no common version.
     */
    public final AtomicLong tlsFailed = new AtomicLong();
    /** TLS handshakes an HTTPS port completed: one per connection, never per request (keep-alive). */
    public final AtomicLong tlsHandshakes = new AtomicLong();
    private volatile Queue queue = NONE;

    /** The counters of the node of {@code context}, created on first use. */
    public static HttpAdmissionCounters of(ConfigurationContext context) {
        synchronized (LOCK) {
            Object c = context.getProperty(PROPERTY);
            if (c instanceof HttpAdmissionCounters counters) {
                return counters;
            }
            HttpAdmissionCounters counters = new HttpAdmissionCounters();
            context.setProperty(PROPERTY, counters);
            return counters;
        }
    }

    /** The server whose connections these count shows its queue through {@code q}. */
    public void watch(Queue q) {
        queue = q == null ? NONE : q;
    }

    /** Connections waiting for a worker now. */
    public int queuedConnections() {
        return queue.length();
    }

    /** How long the oldest connection waiting for a worker has waited, in ms (0: none). */
    public long oldestQueuedMillis() {
        return queue.oldestWaitMillis();
    }

    /** The counters by the names operators read (docs/operations.md). */
    public Map<String, Long> asMap() {
        Map<String, Long> m = new TreeMap<>();
        m.put("connections served", served.get());
        m.put("connections refused: queue full", refusedQueueFull.get());
        m.put("stale connections dropped", staleDropped.get());
        m.put("connections refused: TLS handshake failed", tlsFailed.get());
        m.put("TLS handshakes", tlsHandshakes.get());
        return m;
    }

    @Override
    public String toString() {
        return "served=" + served + " refusedQueueFull=" + refusedQueueFull + " staleDropped=" + staleDropped
                + " tlsFailed=" + tlsFailed + " tlsHandshakes=" + tlsHandshakes + " queued=" + queuedConnections();
    }
}
