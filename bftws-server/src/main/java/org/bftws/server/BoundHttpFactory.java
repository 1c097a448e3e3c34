package org.bftws.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.transport.http.server.HttpConnectionManager;
import org.apache.axis2.transport.http.server.HttpFactory;
import org.apache.axis2.transport.http.server.IOProcessor;
import org.apache.http.params.HttpParams;

/**
 * Axis2's HTTP server factory with the changes a replica needs: its listener binds a chosen address, and its workers
 * serve the bftws status page (/bftws/status) next to the services.
 */
@SuppressWarnings("deprecation") // HttpParams: deprecated in HttpCore 4, but part of Axis2 1.8.2's factory API
final class BoundHttpFactory extends HttpFactory {

    private final InetAddress bindAddress;
    private volatile BoundConnectionListener listener;

    /** @param bindAddress the address to listen on; the wildcard address listens on every interface */
    BoundHttpFactory(ConfigurationContext context, InetAddress bindAddress, int port) throws AxisFault {
        super(context, port, new org.bftws.axis2.monitoring.StatusWorkerFactory());
        this.bindAddress = bindAddress;
    }

    @Override
    public IOProcessor newRequestConnectionListener(int port, HttpConnectionManager manager, HttpParams params)
            throws IOException {
        listener = new BoundConnectionListener(new InetSocketAddress(bindAddress, port), manager, params);
        return listener;
    }

    /** The listener SimpleHttpServer created (null before the server started). */
    BoundConnectionListener listener() {
        return listener;
    }
}
