package org.bftws.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.transport.http.AxisServlet;
import org.bftws.axis2.monitoring.HttpAdmissionCounters;
import org.bftws.axis2.monitoring.StatusServlet;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.standalone.AdmissionPolicy;
import org.bftws.axis2.security.SecurityRuntime;
import org.bftws.tls.DeploymentTls;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.ssl.SslHandshakeListener;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * One Axis2 node inside a servlet container: Axis2's {@link AxisServlet} at {@code /axis2/services/*} in an embedded
 * Jetty 9.4 (javax servlet API, as Axis2 1.8 needs), listening on one address and port, and the status page at
 * {@code /bftws/status} ({@link StatusServlet}). Requests take the path a war deployment's take: AxisServlet's
 * synchronous exchange, held on its Jetty thread until the ordered reply is there. Connections are admitted as on
 * Axis2's own server: a bounded pool and queue ({@link AdmissionThreadPool}), stale connections closed unhandled
 * ({@link StaleConnectionHandler}).
 *
 * <p>The engine is created here, from the node's repository (whose axis2.xml names AxisServletListener as the http
 * receiver), and handed to AxisServlet through the servlet context attribute AxisServlet reads first; AxisServlet
 * then owns it and terminates it when Jetty destroys the servlet.
 */
final class JettyNodeServer implements NodeHttpServer {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(JettyNodeServer.class);

    private final ConfigurationContext context;
    private final Server server;
    private final ServletHolder axis2;
    private final InetSocketAddress address;
    private boolean closed;

    private JettyNodeServer(ConfigurationContext context, Server server, ServletHolder axis2,
                            InetSocketAddress address) {
        this.context = context;
        this.server = server;
        this.axis2 = axis2;
        this.address = address;
    }

    /**
     * Starts the node. Fails with an IOException that names the address when the port cannot be bound, or when
     * AxisServlet did not start, after releasing what was started.
     */
    static JettyNodeServer start(ConfigurationContext context, InetAddress bind, int port) throws IOException {
        AdmissionPolicy admission = AdmissionPolicy.of(context, AdmissionPolicy.DEFAULT_WORKERS);
        HttpAdmissionCounters counters = HttpAdmissionCounters.of(context);
        Server server = new Server(new AdmissionThreadPool(admission, counters));
        DeploymentTls tls;
        try {
            tls = tlsOf(context);
        } catch (IOException e) {
            context.terminate();
            throw e;
        }
        ServerConnector connector = tls == null ? new ServerConnector(server) : httpsConnector(server, tls, counters);
        connector.setHost(bind.getHostAddress());
        connector.setPort(port);
        connector.setReuseAddress(true);
        server.addConnector(connector);

        ServletContextHandler services = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        services.setContextPath("/axis2");
        services.setAttribute(AxisServlet.CONFIGURATION_CONTEXT, context);
        ServletHolder axis2 = new ServletHolder("AxisServlet", AxisServlet.class);
        axis2.setInitOrder(1);
        services.addServlet(axis2, "/services/*");

        ServletContextHandler status = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        status.setContextPath("/bftws");
        status.setAttribute(AxisServlet.CONFIGURATION_CONTEXT, context);
        status.addServlet(StatusServlet.class, "/status");
        status.addServlet(StatusServlet.class, "/metrics");

        StaleConnectionHandler stale = new StaleConnectionHandler(admission.staleAfter(), counters);
        stale.setHandler(new ContextHandlerCollection(services, status));
        server.setHandler(stale);
        // no shutdown hook of Jetty's own: whoever started the node closes it (ReplicaMain has its hook)
        server.setStopAtShutdown(false);
        JettyNodeServer node = new JettyNodeServer(context, server, axis2, null);
        try {
            server.start();
            if (!services.isAvailable() || !axis2.isAvailable()) {
                throw new IOException("AxisServlet did not start (see the log above)");
            }
        } catch (Exception e) {
            node.close();
            if (e instanceof java.net.BindException || e.getCause() instanceof java.net.BindException) {
                throw new IOException("cannot listen on " + bind.getHostAddress() + ":" + port + ": "
                        + e.getMessage(), e);
            }
            throw e instanceof IOException io ? io : new IOException("Jetty did not start: " + e, e);
        }
        return new JettyNodeServer(context, server, axis2,
                new InetSocketAddress(bind, connector.getLocalPort()));
    }

    /**
     * The node's TLS when replicas.xml has {@code <tls>} (the node then serves HTTPS only); an IOException saying what
     * to set when it has but the node has no party name or keys.
     */
    private static DeploymentTls tlsOf(ConfigurationContext context) throws IOException {
        try {
            SecurityRuntime security = SecurityRuntime.of(context);
            if (!security.config().tlsOn()) {
                return null;
            }
            return security.tls().orElseThrow(() -> new IOException("replicas.xml has <tls>, so this node serves "
                    + "HTTPS, but it has no party name or no keys to present (run ./bftws keygen)"));
        } catch (RuntimeException e) {
            throw new IOException("cannot start the node's HTTP server: " + e.getMessage(), e);
        }
    }

    /**
     * An HTTPS connector with the node's deployment TLS: its party certificate, the configured versions and suites,
     * client certificates required as {@code <tls clientCertificates>} says (else asked for, so that the status page
     * can tell who reads it). Handshakes and failed handshakes (a plaintext request, a refused certificate) are counted
     * in the node's HTTP counters, as on the node's own server.
     */
    private static ServerConnector httpsConnector(Server server, DeploymentTls tls, HttpAdmissionCounters counters) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setSslContext(tls.context());
        ssl.setIncludeProtocols(tls.config().protocols().toArray(String[]::new));
        if (!tls.config().cipherSuites().isEmpty()) {
            ssl.setIncludeCipherSuites(tls.config().cipherSuites().toArray(String[]::new));
        }
        ssl.setNeedClientAuth(tls.config().clientCertificates());
        ssl.setWantClientAuth(true);
        ssl.setEndpointIdentificationAlgorithm(null);
        HttpConfiguration https = new HttpConfiguration();
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        secure.setSniHostCheck(false); // certificates name parties, not hosts
        https.addCustomizer(secure);
        ServerConnector connector = new ServerConnector(server, new SslConnectionFactory(ssl,
                HttpVersion.HTTP_1_1.asString()), new HttpConnectionFactory(https));
        connector.addBean(new SslHandshakeListener() {
            @Override
            public void handshakeSucceeded(Event event) {
                tls.handshakeCompleted();
                counters.tlsHandshakes.incrementAndGet();
            }

            @Override
            public void handshakeFailed(Event event, Throwable failure) {
                counters.tlsFailed.incrementAndGet();
                LOG.info("bftws: refused a connection to the HTTPS port: {}", failure.getMessage());
            }
        });
        return connector;
    }

    @Override
    public ConfigurationContext context() {
        return context;
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public synchronized void close() throws AxisFault {
        if (closed) {
            return;
        }
        closed = true;
        // AxisServlet terminates the engine when Jetty destroys it, but only if it was initialised
        boolean servletOwnsEngine = axis2.isStarted() && axis2.getServletInstance() != null;
        BftwsNode.beforeServerStops(context);
        try {
            server.stop();
        } catch (Exception e) {
            throw AxisFault.makeFault(e);
        } finally {
            if (!servletOwnsEngine) {
                context.terminate();
            }
        }
    }
}
