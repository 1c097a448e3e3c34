package org.bftws.server;

import java.net.InetSocketAddress;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;

/**
 * One running Axis2 node and the HTTP server it answers on: Axis2's own SimpleHTTPServer ({@link SimpleHttpNodeServer}) or
 * AxisServlet in an embedded Jetty ({@link JettyNodeServer}). {@link NodeContainer} starts either from the same
 * repository; what runs the node (ReplicaMain's ready line, stdin commands, shutdown) is the same for both.
 */
interface NodeHttpServer extends AutoCloseable {

    /** The node's Axis2 engine, where the bftws module keeps its state. */
    ConfigurationContext context();

    /** The address and port the server listens on. */
    InetSocketAddress address();

    /** Stops listening, then the node (the module's threads); safe to call twice (main and a shutdown hook). */
    @Override
    void close() throws AxisFault;
}
