package org.bftws.interop.cxf;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/** A pass-through HTTP proxy on 127.0.0.1 that records every request and response body it carries. */
final class RecordingProxy implements AutoCloseable {

    final List<String> requests = new CopyOnWriteArrayList<>();
    final List<String> responses = new CopyOnWriteArrayList<>();
    private final HttpServer server;
    private final ExecutorService pool = Executors.newFixedThreadPool(4);
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI node;

    RecordingProxy(URI node) throws IOException {
        this.node = node;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.createContext("/", this::handle);
        server.setExecutor(pool);
        server.start();
    }

    String address(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private void handle(HttpExchange x) throws IOException {
        try (InputStream in = x.getRequestBody()) {
            byte[] body = in.readAllBytes();
            requests.add(new String(body, StandardCharsets.UTF_8));
            HttpRequest.Builder b = HttpRequest.newBuilder(node.resolve(x.getRequestURI().getPath()))
                    .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
            for (String h : List.of("Content-Type", "SOAPAction")) {
                String v = x.getRequestHeaders().getFirst(h);
                if (v != null) {
                    b.header(h, v);
                }
            }
            HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            responses.add(new String(r.body(), StandardCharsets.UTF_8));
            r.headers().firstValue("Content-Type").ifPresent(t -> x.getResponseHeaders().add("Content-Type", t));
            x.sendResponseHeaders(r.statusCode(), r.body().length == 0 ? -1 : r.body().length);
            try (OutputStream out = x.getResponseBody()) {
                out.write(r.body());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            x.close();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
