package org.bftws.axis2.monitoring;

import org.apache.axis2.transport.http.server.Worker;
import org.apache.axis2.transport.http.server.WorkerFactory;

/**
 * Hands Axis2's HTTP server (SimpleHTTPServer's HttpCore-based listener) the {@link StatusWorker}: pass it to
 * {@code new HttpFactory(context, port, new StatusWorkerFactory())}, or name {@link StatusHttpServer} as the http
 * transportReceiver in axis2.xml.
 */
public final class StatusWorkerFactory implements WorkerFactory {

    @Override
    public Worker newWorker() {
        return new StatusWorker();
    }
}
