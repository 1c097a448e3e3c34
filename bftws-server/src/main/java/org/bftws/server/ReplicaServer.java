package org.bftws.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.transport.http.SimpleHTTPServer;

/**
 * One Axis2 node serving HTTP on one address and port: an Axis2 repository, its axis2.xml, and Axis2's own HTTP
 * server (the only one the module's suspended exchanges are tested with) with a listener bound to that address.
 */
final class ReplicaServer implements AutoCloseable {

    private final ConfigurationContext context;
    private final SimpleHTTPServer server;
    private final InetSocketAddress address;
    private boolean closed;

    private ReplicaServer(ConfigurationContext context, SimpleHTTPServer server, InetSocketAddress address) {
        this.context = context;
        this.server = server;
        this.address = address;
    }

    /**
     * Starts the node. Fails with an IOException that names the address when the port cannot be bound (in use,
     * not an address of this machine), after releasing what was started.
     */
    static ReplicaServer start(Path repository, Path axis2Xml, InetAddress bind, int port) throws IOException {
        return start(ConfigurationContextFactory.createConfigurationContextFromFileSystem(repository.toString(),
                axis2Xml.toString()), bind, port);
    }

    /** Starts a node on an engine already created (e.g. by BftwsConfigurator, naming the node without properties). */
    static ReplicaServer start(ConfigurationContext context, InetAddress bind, int port) throws IOException {
        BoundHttpFactory factory;
        SimpleHTTPServer server;
        try {
            factory = new BoundHttpFactory(context, bind, port);
            server = new SimpleHTTPServer(factory);
            server.start();
        } catch (AxisFault | RuntimeException e) {
            context.terminate();
            throw e;
        }
        BoundConnectionListener listener = factory.listener();
        IOException failure = listener == null ? new IOException("Axis2 created no HTTP listener")
                : listener.bindFailure();
        if (failure != null) {
            server.stop();
            context.terminate();
            throw new IOException("cannot listen on " + bind.getHostAddress() + ":" + port + ": "
                    + failure.getMessage(), failure);
        }
        return new ReplicaServer(context, server, listener.boundAddress());
    }

    ConfigurationContext context() {
        return context;
    }

    /** The address and port the server listens on. */
    InetSocketAddress address() {
        return address;
    }

    /** Stops listening, then the module's threads; safe to call twice (main and the shutdown hook may both). */
    @Override
    public synchronized void close() throws AxisFault {
        if (closed) {
            return;
        }
        closed = true;
        server.stop();
        context.terminate();
    }
}
