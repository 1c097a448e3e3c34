package org.bftws.interop.rampart;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/**
 * An HTTP relay on a loopback port that changes one string in each request body on its way to the node: what an
 * attacker on the path does to a signed message. It keeps the node's last answer for the test to inspect.
 */
final class TamperingRelay implements AutoCloseable {
    private final HttpServer server;
    private final String target;
    private final String from;
    private final String to;
    volatile int lastStatus;
    volatile String lastAnswer = "";

    TamperingRelay(String target, String from, String to) throws IOException {
        this.target = target;
        this.from = from;
        this.to = to;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::relay);
        server.start();
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/axis2/services/EchoService";
    }

    private void relay(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).replace(from, to);
        HttpURLConnection c = (HttpURLConnection) new URL(target).openConnection();
        c.setDoOutput(true);
        c.setConnectTimeout(5000);
        c.setReadTimeout(10000);
        c.setRequestProperty("Content-Type", exchange.getRequestHeaders().getFirst("Content-Type"));
        String action = exchange.getRequestHeaders().getFirst("SOAPAction");
        if (action != null) {
            c.setRequestProperty("SOAPAction", action);
        }
        c.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
        int status = c.getResponseCode();
        byte[] answer;
        try (InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
            answer = in == null ? new byte[0] : in.readAllBytes();
        }
        lastStatus = status;
        lastAnswer = new String(answer, StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", c.getContentType());
        exchange.sendResponseHeaders(status, answer.length == 0 ? -1 : answer.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
