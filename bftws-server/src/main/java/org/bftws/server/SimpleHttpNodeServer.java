package org.bftws.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.transport.http.SimpleHTTPServer;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.standalone.AdmittingHttpFactory;

/**
 * One Axis2 node serving HTTP on one address and port with Axis2's own HTTP server (SimpleHTTPServer, HttpCore 4):
 * an Axis2 repository, its axis2.xml, and a listener bound to that address whose workers also serve the status page
 * ({@link AdmittingHttpFactory}: bounded admission of connections, docs/operations.md "Connections"). The default way a
 * replica runs; {@link JettyNodeServer} is the servlet container one.
 */
final class SimpleHttpNodeServer implements NodeHttpServer {

    private final ConfigurationContext context;
    private final SimpleHTTPServer server;
    private final InetSocketAddress address;
    private boolean closed;

    private SimpleHttpNodeServer(ConfigurationContext context, SimpleHTTPServer server, InetSocketAddress address) {
        this.context = context;
        this.server = server;
        this.address = address;
    }

    /**
     * Starts a node on an engine already created (by {@link NodeContainer}, or by BftwsConfigurator, naming the node
     * without properties). Fails with an IOException that names the address when the port cannot be bound (in use,
     * not an address of this machine), after releasing what was started.
     */
    static SimpleHttpNodeServer start(ConfigurationContext context, InetAddress bind, int port) throws IOException {
        AdmittingHttpFactory factory;
        SimpleHTTPServer server;
        try {
            factory = new AdmittingHttpFactory(context, bind, port);
            server = new SimpleHTTPServer(factory);
            server.start();
        } catch (AxisFault | RuntimeException e) {
            context.terminate();
            throw e;
        }
        IOException failure = factory.bindFailure();
        if (failure != null) {
            server.stop();
            context.terminate();
            throw new IOException("cannot listen on " + bind.getHostAddress() + ":" + port + ": "
                    + failure.getMessage(), failure);
        }
        return new SimpleHttpNodeServer(context, server, factory.boundAddress());
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
        BftwsNode.beforeServerStops(context);
        server.stop();
        context.terminate();
    }
}
