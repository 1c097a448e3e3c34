package org.bftws.axis2.standalone;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;

import org.apache.axis2.transport.http.server.DefaultConnectionListener;
import org.apache.axis2.transport.http.server.DefaultConnectionListenerFailureHandler;
import org.apache.axis2.transport.http.server.HttpConnectionManager;
import org.apache.http.params.HttpParams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The accept loop of a node's HTTP server, bound to one address, that hands each connection it accepts to the
 * server's {@link HttpAdmission} (a bounded queue, a 503 when it is full). Axis2 1.8.2's own listener always binds every
 * interface ({@code new ServerSocket(port)}), but a testbed replica must listen on loopback only; and it hands
 * connections to an unbounded queue. Axis2's
 * {@code SimpleHttpServer.start} casts its listener to {@link DefaultConnectionListener}, hence the subclass; every
 * method that touches the socket is overridden, so the superclass's socket is never opened. (HttpCore 4's
 * {@code HttpParams} is deprecated, but it is what Axis2 1.8.2's listener API passes.)
 */
@SuppressWarnings("deprecation")
final class AdmittingConnectionListener extends DefaultConnectionListener {
    private static final Logger LOG = LoggerFactory.getLogger(AdmittingConnectionListener.class);
    private static final int BACKLOG = 128;

    private final InetSocketAddress address;
    private final HttpAdmission admission;
    private ServerSocket socket;
    private IOException bindFailure;
    private boolean destroyed;

    AdmittingConnectionListener(InetSocketAddress address, HttpConnectionManager connections, HttpParams params,
                                HttpAdmission admission) throws IOException {
        super(address.getPort(), connections, new DefaultConnectionListenerFailureHandler(), params);
        this.address = address;
        this.admission = admission;
    }

    @Override
    public void run() {
        ServerSocket server = open();
        if (server == null) {
            return;
        }
        try {
            while (!Thread.currentThread().isInterrupted() && !isDestroyed()) {
                accept(server);
            }
        } finally {
            destroy();
        }
    }

    private synchronized ServerSocket open() {
        try {
            if (!destroyed) {
                ServerSocket s = new ServerSocket();
                s.setReuseAddress(true);
                s.bind(address, BACKLOG);
                socket = s;
            }
        } catch (IOException e) {
            bindFailure = e;
            destroyed = true;
        }
        notifyAll();
        return socket;
    }

    private void accept(ServerSocket server) {
        Socket client;
        try {
            client = server.accept();
        } catch (SocketException e) {
            if (!server.isClosed()) {
                LOG.warn("accept on {} failed: {}", address, e.toString());
            }
            destroy();
            return;
        } catch (IOException e) {
            // e.g. too many open files: keep serving the connections that are open, try again shortly
            LOG.warn("accept on {} failed, retrying: {}", address, e.toString());
            pause();
            return;
        }
        admission.admit(client);
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Why the socket could not be bound, or null when it was (or has not been tried yet). */
    synchronized IOException bindFailure() {
        return bindFailure;
    }

    synchronized InetSocketAddress boundAddress() {
        return socket == null ? null : (InetSocketAddress) socket.getLocalSocketAddress();
    }

    @Override
    public synchronized void awaitSocketOpen() throws InterruptedException {
        while (socket == null && !destroyed) {
            wait();
        }
    }

    @Override
    public synchronized int getPort() {
        return socket == null ? address.getPort() : socket.getLocalPort();
    }

    @Override
    public synchronized void close() throws IOException {
        if (socket != null) {
            socket.close();
        }
    }

    @Override
    public synchronized void destroy() {
        destroyed = true;
        try {
            close();
        } catch (IOException e) {
            LOG.warn("closing the listening socket {} failed: {}", address, e.toString());
        }
        notifyAll();
    }

    @Override
    public synchronized boolean isDestroyed() {
        return destroyed;
    }
}
