package org.bftws.axis2;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An HTTP proxy on 127.0.0.1 between a client and one node that, following a {@link Plan}, drops requests (the
 * client's connection is closed unanswered), drops responses (the node executed the request, the client never hears),
 * duplicates requests (the node gets two copies) and delays them (so concurrent requests overtake each other).
 */
final class LossyProxy implements AutoCloseable {

    enum Fate { PASS, DROP_REQUEST, DROP_RESPONSE, DUPLICATE }

    /** Decides each request's fate and delay; called once per request, in arrival order. */
    interface Plan {
        Fate fate(int index, String body);

        default long delayMillis(int index) {
            return 0;
        }
    }

    /** A seeded random plan with the given probabilities and delays up to {@code maxDelay} ms. */
    static Plan random(long seed, double dropRequest, double dropResponse, double duplicate, int maxDelay) {
        java.util.Random rnd = new java.util.Random(seed);
        return new Plan() {
            @Override
            public synchronized Fate fate(int index, String body) {
                double x = rnd.nextDouble();
                return x < dropRequest ? Fate.DROP_REQUEST : x < dropRequest + dropResponse ? Fate.DROP_RESPONSE
                        : x < dropRequest + dropResponse + duplicate ? Fate.DUPLICATE : Fate.PASS;
            }

            @Override
            public synchronized long delayMillis(int index) {
                return maxDelay == 0 ? 0 : rnd.nextInt(maxDelay);
            }
        };
    }

    final AtomicInteger requests = new AtomicInteger();
    final AtomicInteger droppedRequests = new AtomicInteger();
    final AtomicInteger droppedResponses = new AtomicInteger();
    final AtomicInteger duplicated = new AtomicInteger();
    private final HttpServer server;
    private final ExecutorService pool = Executors.newFixedThreadPool(16);
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI node;
    private final Plan plan;

    LossyProxy(URI node, Plan plan) throws IOException {
        this.node = node;
        this.plan = plan;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.createContext("/", this::handle);
        server.setExecutor(pool);
        server.start();
    }

    /** The proxy's address for the node's path {@code path}. */
    String address(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private void handle(HttpExchange x) throws IOException {
        try (InputStream in = x.getRequestBody()) {
            byte[] body = in.readAllBytes();
            int index = requests.getAndIncrement();
            Fate fate = plan.fate(index, new String(body, java.nio.charset.StandardCharsets.UTF_8));
            sleep(plan.delayMillis(index));
            if (fate == Fate.DROP_REQUEST) {
                droppedRequests.incrementAndGet();
                x.close();
                return;
            }
            forwarded.add(index);
            HttpResponse<byte[]> response = forward(x, body);
            if (fate == Fate.DUPLICATE) {
                duplicated.incrementAndGet();
                response = forward(x, body);
            }
            if (fate == Fate.DROP_RESPONSE) {
                droppedResponses.incrementAndGet();
                x.close();
                return;
            }
            response.headers().firstValue("Content-Type").ifPresent(t -> x.getResponseHeaders().add("Content-Type", t));
            x.sendResponseHeaders(response.statusCode(), response.body().length == 0 ? -1 : response.body().length);
            try (OutputStream out = x.getResponseBody()) {
                out.write(response.body());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            x.close();
        } catch (IOException e) {
            x.close();
        }
    }

    /** The indexes of the requests the proxy has begun to forward to the node (after their delay). */
    final java.util.Set<Integer> forwarded = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** Every response the node gave, in order, with the request it answered (as the proxy forwarded them). */
    final List<byte[][]> exchanged = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

    private HttpResponse<byte[]> forward(HttpExchange x, byte[] body) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = send(x, body);
        exchanged.add(new byte[][] {body, response.body()});
        return response;
    }

    private HttpResponse<byte[]> send(HttpExchange x, byte[] body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(node.resolve(x.getRequestURI().getPath()))
                .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        for (String h : List.of("Content-Type", "SOAPAction")) {
            String v = x.getRequestHeaders().getFirst(h);
            if (v != null) {
                b.header(h, v);
            }
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static void sleep(long ms) throws InterruptedException {
        if (ms > 0) {
            Thread.sleep(ms);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
