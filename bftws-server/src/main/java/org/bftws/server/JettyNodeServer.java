package org.bftws.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.transport.http.AxisServlet;
import org.bftws.axis2.monitoring.HttpAdmissionCounters;
import org.bftws.axis2.monitoring.StatusServlet;
import org.bftws.axis2.standalone.AdmissionPolicy;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

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
        ServerConnector connector = new ServerConnector(server);
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
