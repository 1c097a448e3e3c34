package org.bftws.axis2.standalone;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.transport.http.server.AxisHttpConnectionImpl;
import org.apache.axis2.transport.http.server.DefaultHttpConnectionManager;
import org.apache.axis2.transport.http.server.HttpConnectionManager;
import org.apache.axis2.transport.http.server.HttpFactory;
import org.apache.axis2.transport.http.server.IOProcessor;
import org.apache.axis2.transport.http.server.WorkerFactory;
import org.apache.http.params.HttpParams;
import org.bftws.axis2.monitoring.HttpAdmissionCounters;
import org.bftws.axis2.security.SecurityRuntime;
import org.bftws.tls.DeploymentTls;
import org.bftws.axis2.monitoring.StatusReaders;
import org.bftws.axis2.monitoring.StatusWorkerFactory;

/**
 * Axis2's HTTP server factory with what a node of this project needs: its listener binds a chosen address, its workers
 * serve the bftws status page (/bftws/status) next to the services, and connections are admitted through a bounded
 * queue ({@link HttpAdmission}: a fixed number of workers, {@code requestCoreThreadPoolSize} of axis2.xml, 100 by
 * default; {@code maxQueuedConnections} of the node's group waiting; a 503 beyond; a connection that waited longer than
 * {@code staleConnectionAfter} closed unread). Axis2's own factory queues connections without bound.
 *
 * <p>How the pieces meet: Axis2's SimpleHttpServer asks this factory for the workers ({@link #newRequestExecutor}:
 * {@link HttpAdmission}'s pool, which Axis2 shuts down when it stops), the connection manager (Axis2's, running each
 * connection's HTTP service on the thread that hands it the connection: the admission's worker) and the listener,
 * which hands every accepted socket to the admission.
 */
@SuppressWarnings("deprecation") // HttpParams: deprecated in HttpCore 4, but part of Axis2 1.8.2's factory API
public class AdmittingHttpFactory extends HttpFactory {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AdmittingHttpFactory.class);
    /** How long a client has to complete the TLS handshake. */
    static final int HANDSHAKE_MILLIS = 10_000;
    /** Bytes of a message written or read in one piece: the most one TLS record carries. */
    static final int MESSAGE_BUFFER = 16 * 1024;

    private final InetAddress bindAddress;
    private final DeploymentTls tls;
    private volatile HttpConnectionManager manager;
    private volatile HttpParams params;
    private volatile HttpAdmission admission;
    private volatile AdmittingConnectionListener listener;

    /**
     * @param bindAddress the address to listen on; the wildcard address listens on every interface
     * @param port        the port; 0 picks a free one ({@link #boundAddress()} tells which)
     */
    public AdmittingHttpFactory(ConfigurationContext context, InetAddress bindAddress, int port) throws AxisFault {
        this(context, bindAddress, port, new StatusWorkerFactory());
    }

    public AdmittingHttpFactory(ConfigurationContext context, InetAddress bindAddress, int port,
                                WorkerFactory workers) throws AxisFault {
        super(context, port, workers);
        this.bindAddress = bindAddress;
        this.tls = tlsOf(context);
    }

    /**
     * The node's TLS when replicas.xml has {@code <tls>}: the server then speaks HTTPS only. AxisFault when it has, but
     * the node has no party name or keys to present.
     */
    private static DeploymentTls tlsOf(ConfigurationContext context) throws AxisFault {
        SecurityRuntime security;
        try {
            security = SecurityRuntime.of(context);
            if (!security.config().tlsOn()) {
                return null;
            }
            return security.tls().orElseThrow(() -> new IllegalStateException("replicas.xml has <tls>, so this node"
                    + " serves HTTPS, but it has no party name or no keys to present (set the bftws module parameter"
                    + " 'party' and run ./bftws keygen)"));
        } catch (RuntimeException e) {
            throw new AxisFault("bftws: cannot start the node's HTTP server: " + e.getMessage(), e);
        }
    }

    /** Whether this server speaks HTTPS (replicas.xml has {@code <tls>}). */
    public boolean https() {
        return tls != null;
    }

    @Override
    public ExecutorService newRequestExecutor(int port) {
        AdmissionPolicy policy = AdmissionPolicy.of(getConfigurationContext(), getRequestCoreThreadPoolSize());
        HttpAdmission a = new HttpAdmission(policy, HttpAdmissionCounters.of(getConfigurationContext()),
                this::serve, "HttpConnection-" + port, tls != null);
        admission = a;
        return a.executor();
    }

    @Override
    public HttpConnectionManager newRequestConnectionManager(ExecutorService requestExecutor,
                                                             WorkerFactory workerFactory, HttpParams connectionParams) {
        // the connection's HTTP service runs on the admission's worker that calls process(), not on another thread
        HttpConnectionManager m = new DefaultHttpConnectionManager(getConfigurationContext(), Runnable::run,
                workerFactory, connectionParams);
        manager = m;
        params = wholeMessages(connectionParams);
        return m;
    }

    /**
     * The connections' parameters with a buffer that holds a whole message: HttpCore writes a buffered piece of at
     * least {@code http.connection.min-chunk-limit} bytes (512 by default) straight to the socket, so a reply went out
     * as three writes (the headers, the envelope, the end of the chunked body), and over TLS as three records, each
     * encrypted, sent and decrypted on its own. Up to {@value #MESSAGE_BUFFER} bytes (the most one TLS record carries)
     * a reply is one write.
     */
    private static HttpParams wholeMessages(HttpParams connectionParams) {
        HttpParams p = connectionParams.copy();
        p.setIntParameter(org.apache.http.params.CoreConnectionPNames.SOCKET_BUFFER_SIZE, MESSAGE_BUFFER);
        p.setIntParameter(org.apache.http.params.CoreConnectionPNames.MIN_CHUNK_LIMIT, MESSAGE_BUFFER);
        return p;
    }

    @Override
    public IOProcessor newRequestConnectionListener(int port, HttpConnectionManager connections,
                                                    HttpParams connectionParams) throws IOException {
        AdmittingConnectionListener l = new AdmittingConnectionListener(new InetSocketAddress(bindAddress, port),
                connections, connectionParams, admission);
        listener = l;
        return l;
    }

    /**
     * A worker's part: Axis2's HTTP service on the connection, until it closes; on an HTTPS server after the TLS
     * handshake, which a connection that does not complete it (plaintext HTTP, a refused certificate) does not pass:
     * it is counted ({@link HttpAdmissionCounters#tlsFailed}) and closed, nothing else touched.
     */
    private void serve(java.net.Socket socket) throws IOException {
        java.net.Socket connection = socket;
        if (tls != null) {
            HttpAdmissionCounters counters = HttpAdmissionCounters.of(getConfigurationContext());
            try {
                connection = tls.accept(socket, HANDSHAKE_MILLIS);
            } catch (IOException e) {
                counters.tlsFailed.incrementAndGet();
                LOG.info("bftws: refused the connection from {} to the HTTPS port: {}",
                        socket.getRemoteSocketAddress(), e.getMessage());
                socket.close();
                return;
            }
            counters.tlsHandshakes.incrementAndGet();
        }
        AxisHttpConnectionImpl http = new AxisHttpConnectionImpl(connection, params);
        if (connection instanceof javax.net.ssl.SSLSocket s) {
            // the status page knows who reads it by the client certificate (the setting statusReaders)
            StatusReaders.asConnectionOf(DeploymentTls.peerName(s.getSession()), () -> manager.process(http));
        } else {
            manager.process(http);
        }
    }

    /** The admission of the server this factory built (null before the server was initialised). */
    public HttpAdmission admission() {
        return admission;
    }

    /** Why the listening socket could not be bound, or null when it was (or the server has not started). */
    public IOException bindFailure() {
        AdmittingConnectionListener l = listener;
        return l == null ? new IOException("Axis2 created no HTTP listener") : l.bindFailure();
    }

    /** The address and port the server listens on, or null before it does. */
    public InetSocketAddress boundAddress() {
        AdmittingConnectionListener l = listener;
        return l == null ? null : l.boundAddress();
    }
}
