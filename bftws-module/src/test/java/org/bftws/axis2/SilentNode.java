package org.bftws.axis2;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A replica that has hung: it accepts connections and reads requests but never answers (a crashed process would
 * refuse connections; a stuck one is worse for the client, which must time out). Counts the POSTs it received.
 */
final class SilentNode implements AutoCloseable {
    final AtomicInteger posts = new AtomicInteger();
    private final ServerSocket server;
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    SilentNode() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "silent-node");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                open.add(s);
                Thread reader = new Thread(() -> read(s), "silent-node-reader");
                reader.setDaemon(true);
                reader.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void read(Socket s) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                StandardCharsets.ISO_8859_1))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.startsWith("POST ")) {
                    posts.incrementAndGet();
                }
            }
        } catch (IOException e) {
            // the client gave up on this connection
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : open) {
            s.close();
        }
    }
}
