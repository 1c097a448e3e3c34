package org.bftws.axis2.standalone;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.transport.http.SimpleHTTPServer;
import org.bftws.axis2.node.BftwsNode;

/**
 * One Axis2 node listening on 127.0.0.1-reachable HTTP: a repository (services/*.aar, modules/*.mar), an axis2.xml
 * and a port. Used by tests and the testbed; stop it to release the port and the module's threads. Its HTTP server
 * admits connections as a replica's does ({@link AdmittingHttpFactory}: a bounded queue, 503 beyond it, stale
 * connections closed unread).
 */
public final class NodeServer implements AutoCloseable {

    private final ConfigurationContext context;
    private final SimpleHTTPServer server;
    private final int port;
    private final boolean https;

    private NodeServer(ConfigurationContext context, SimpleHTTPServer server, int port, boolean https) {
        this.context = context;
        this.server = server;
        this.port = port;
        this.https = https;
    }

    /** Starts a node; {@code port} 0 picks a free one. */
    public static NodeServer start(Path repository, Path axis2Xml, int port) throws IOException {
        ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repository.toString(), axis2Xml.toString());
        return serve(ctx, port);
    }

    /**
     * Serves a node whose engine is already created (e.g. by BftwsConfigurator, which names the node's party) on
     * {@code port} of every interface; 0 picks a free one. The node's engine is terminated when the server cannot
     * start, and when it is closed.
     */
    public static NodeServer serve(ConfigurationContext ctx, int port) throws IOException {
        int p = port == 0 ? freePort() : port;
        // Axis2's server with the module's status page (/bftws/status) next to the services, on every interface
        AdmittingHttpFactory factory;
        SimpleHTTPServer server;
        try {
            factory = new AdmittingHttpFactory(ctx, new InetSocketAddress(0).getAddress(), p);
            server = new SimpleHTTPServer(factory);
            server.start();
        } catch (AxisFault | RuntimeException e) {
            ctx.terminate();
            throw e;
        }
        IOException failure = factory.bindFailure();
        if (failure != null) {
            server.stop();
            ctx.terminate();
            throw new IOException("cannot listen on port " + p + ": " + failure.getMessage(), failure);
        }
        return new NodeServer(ctx, server, p, factory.https());
    }

    /** A free loopback port ({@link LoopbackPorts}). */
    public static int freePort() throws IOException {
        return LoopbackPorts.next();
    }

    /** {@code n} distinct free loopback ports ({@link LoopbackPorts}: never one handed out before by this JVM). */
    public static int[] freePorts(int n) throws IOException {
        int[] ports = new int[n];
        for (int i = 0; i < n; i++) {
            ports[i] = LoopbackPorts.next();
        }
        return ports;
    }

    /** {@code n} distinct free loopback ports none of which is in {@code taken}. */
    public static int[] freePortsAvoiding(int n, java.util.Collection<Integer> taken) throws IOException {
        int[] ports = new int[n];
        for (int i = 0; i < n; i++) {
            int p = LoopbackPorts.next();
            while (taken.contains(p)) {
                p = LoopbackPorts.next();
            }
            ports[i] = p;
        }
        return ports;
    }

    public ConfigurationContext context() {
        return context;
    }

    public int port() {
        return port;
    }

    /** Whether the node serves HTTPS (replicas.xml has {@code <tls>}). */
    public boolean https() {
        return https;
    }

    /** http://127.0.0.1:port/axis2/services/{service} (https:// when the node serves HTTPS) */
    public String endpoint(String service) {
        return (https ? "https" : "http") + "://127.0.0.1:" + port + "/axis2/services/" + service;
    }

    @Override
    public void close() throws AxisFault {
        BftwsNode.beforeServerStops(context);
        server.stop();
        context.terminate();
    }
}
