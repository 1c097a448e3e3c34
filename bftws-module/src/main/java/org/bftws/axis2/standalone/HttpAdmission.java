package org.bftws.axis2.standalone;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.bftws.axis2.monitoring.HttpAdmissionCounters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bounded admission of a node's HTTP server (docs/operations.md, "Connections"). Axis2's own server hands every
 * accepted connection to its workers through an unbounded queue, so under a flood of connections it works, long after,
 * through connections whose clients gave up: honest requests wait behind them and the node executes nothing for
 * seconds after the flood stops. Here a fixed number of workers take connections from a queue of
 * {@link AdmissionPolicy#maxQueued()}:
 * <ul>
 * <li>a connection that finds the queue full is answered at once, on the accepting thread, with a constant
 * {@code 503} and {@code Connection: close}, and closed: no Axis2 processing, no worker (counted
 * {@code connections refused: queue full});</li>
 * <li>a connection that waited longer than {@link AdmissionPolicy#staleAfter()} for a worker is closed unread: its
 * client has given up and sent again (counted {@code stale connections dropped}).</li>
 * </ul>
 * A worker serves one connection until it closes (keep-alive included), as Axis2's does.
 */
public final class HttpAdmission {
    private static final Logger LOG = LoggerFactory.getLogger(HttpAdmission.class);

    /** The whole answer to a connection that finds the queue full; the same bytes every time. */
    static final byte[] BUSY = busy("bftws: too many connections waiting for a worker\n");
    /** At most this many bytes a refused client already sent are read and discarded before the close. */
    private static final int DRAIN_LIMIT = 64 * 1024;

    private static byte[] busy(String body) {
        return ("HTTP/1.1 503 Service Unavailable\r\n"
                + "Connection: close\r\n"
                + "Retry-After: 1\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: " + body.length() + "\r\n"
                + "\r\n"
                + body).getBytes(StandardCharsets.US_ASCII);
    }

    /** What a worker does with a connection it admits (Axis2's HTTP service on it, until it closes). */
    @FunctionalInterface
    public interface Service {
        void serve(Socket connection) throws IOException;
    }

    private final AdmissionPolicy policy;
    private final boolean tls;
    private final HttpAdmissionCounters counters;
    private final Service service;
    private final Executor executor;

    /** @param name the prefix of the workers' thread names */
    public HttpAdmission(AdmissionPolicy policy, HttpAdmissionCounters counters, Service service, String name) {
        this(policy, counters, service, name, false);
    }

    /**
     * @param tls whether the port speaks HTTPS: a connection refused for a full queue is then closed without the
     *            plaintext 503, which a TLS client could not read (it retries as it would after the 503)
     */
    public HttpAdmission(AdmissionPolicy policy, HttpAdmissionCounters counters, Service service, String name,
                         boolean tls) {
        this.tls = tls;
        this.policy = policy;
        this.counters = counters;
        this.service = service;
        this.executor = new Executor(policy, name);
        counters.watch(new HttpAdmissionCounters.Queue() {
            @Override
            public int length() {
                return executor.getQueue().size();
            }

            @Override
            public long oldestWaitMillis() {
                Runnable oldest = executor.getQueue().peek();
                return oldest instanceof Waiting w ? TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - w.acceptedAt)
                        : 0;
            }
        });
    }

    public AdmissionPolicy policy() {
        return policy;
    }

    /** The workers, for the server's lifecycle (Axis2 shuts them down when it stops). */
    public ThreadPoolExecutor executor() {
        return executor;
    }

    /**
     * Queues {@code connection}, just accepted, for a worker; answers it 503 and closes it when the queue is full.
     * Never blocks on the connection.
     */
    public void admit(Socket connection) {
        executor.execute(new Waiting(connection, System.nanoTime()));
    }

    /** A connection accepted at {@code acceptedAt} (System.nanoTime) and waiting for a worker. */
    private final class Waiting implements Runnable {
        final Socket socket;
        final long acceptedAt;

        Waiting(Socket socket, long acceptedAt) {
            this.socket = socket;
            this.acceptedAt = acceptedAt;
        }

        @Override
        public void run() {
            long waited = System.nanoTime() - acceptedAt;
            if (waited > policy.staleAfter().toNanos()) {
                counters.staleDropped.incrementAndGet();
                LOG.debug("closing a connection from {} unread: it waited {} ms for a worker (stale after {} ms)",
                        socket.getRemoteSocketAddress(), TimeUnit.NANOSECONDS.toMillis(waited),
                        policy.staleAfter().toMillis());
                closeQuietly(socket);
                return;
            }
            counters.served.incrementAndGet();
            try {
                service.serve(socket);
            } catch (IOException | RuntimeException e) {
                LOG.warn("could not serve the connection from {}: {}", socket.getRemoteSocketAddress(), e.toString());
                closeQuietly(socket);
            }
        }

        /** The queue is full (or the server stops): the constant 503, then close; never waits on the client. */
        void refuse() {
            counters.refusedQueueFull.incrementAndGet();
            if (tls) {
                closeQuietly(socket);
                return;
            }
            try {
                OutputStream out = socket.getOutputStream();
                out.write(BUSY);
                out.flush();
                // what the client already sent is read and dropped, so that the close is a FIN and the client reads
                // the 503 rather than a reset
                InputStream in = socket.getInputStream();
                long drained = 0;
                for (int n = in.available(); n > 0 && drained < DRAIN_LIMIT; n = in.available()) {
                    long skipped = in.skip(Math.min(n, DRAIN_LIMIT - drained));
                    if (skipped <= 0) {
                        break;
                    }
                    drained += skipped;
                }
                socket.shutdownOutput();
            } catch (IOException e) {
                LOG.debug("answering 503 to {} failed: {}", socket.getRemoteSocketAddress(), e.toString());
            } finally {
                closeQuietly(socket);
            }
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // the connection is being given up anyway
        }
    }

    /** A fixed pool over a bounded queue; what is still queued at shutdown is closed, not leaked. */
    private static final class Executor extends ThreadPoolExecutor {
        private static final RejectedExecutionHandler REFUSE = (task, pool) -> {
            if (task instanceof Waiting w) {
                w.refuse();
            }
        };

        Executor(AdmissionPolicy policy, String name) {
            super(policy.workers(), policy.workers(), 0L, TimeUnit.MILLISECONDS,
                    new ArrayBlockingQueue<>(policy.maxQueued()), threads(name), REFUSE);
        }

        private static ThreadFactory threads(String name) {
            AtomicInteger n = new AtomicInteger();
            ThreadGroup group = new ThreadGroup("Connection thread group");
            return r -> new Thread(group, r, name + "-" + n.incrementAndGet());
        }

        @Override
        public List<Runnable> shutdownNow() {
            List<Runnable> queued = super.shutdownNow();
            for (Runnable r : queued) {
                if (r instanceof Waiting w) {
                    closeQuietly(w.socket);
                }
            }
            return queued;
        }
    }
}
