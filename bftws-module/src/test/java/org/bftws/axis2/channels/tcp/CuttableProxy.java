package org.bftws.axis2.channels.tcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay on a free loopback port in front of a node's channel address, standing for the network: it can cut
 * every connection through it at once (a reset: whatever was in flight is lost), swallow what the dialler sends
 * (frames written and never delivered), and keeps a copy of the first connection's bytes from the dialler.
 */
public final class CuttableProxy implements AutoCloseable {
    private final ServerSocket server;
    private final InetSocketAddress target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream firstConnection = new ByteArrayOutputStream();
    private volatile boolean swallow;
    private volatile int connections;

    public CuttableProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "test-proxy");
        t.setDaemon(true);
        t.start();
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    /** While true, bytes from the dialler are read and dropped. */
    public void swallow(boolean on) {
        swallow = on;
    }

    /** Resets every connection through the proxy. */
    public void cut() {
        for (Socket s : sockets) {
            try {
                s.setSoLinger(true, 0);
                s.close();
            } catch (IOException ignored) {
                // already gone
            }
        }
        sockets.clear();
    }

    public int connections() {
        return connections;
    }

    public byte[] firstConnectionBytes() {
        synchronized (firstConnection) {
            return firstConnection.toByteArray();
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            Socket in;
            try {
                in = server.accept();
            } catch (IOException e) {
                return;
            }
            try {
                Socket out = new Socket(target.getAddress(), target.getPort());
                sockets.add(in);
                sockets.add(out);
                boolean first = connections++ == 0;
                pump(in, out, true, first);
                pump(out, in, false, false);
            } catch (IOException targetDown) {
                try {
                    in.close(); // as the target would: nobody listens there yet
                } catch (IOException ignored) {
                    // nothing more
                }
            }
        }
    }

    private void pump(Socket from, Socket to, boolean fromDialler, boolean record) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    if (record) {
                        synchronized (firstConnection) {
                            firstConnection.write(buffer, 0, n);
                        }
                    }
                    if (fromDialler && swallow) {
                        continue;
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException ignored) {
                // cut or closed
            } finally {
                try {
                    from.close();
                    to.close();
                } catch (IOException ignored) {
                    // nothing more
                }
            }
        }, "test-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
        cut();
    }
}
