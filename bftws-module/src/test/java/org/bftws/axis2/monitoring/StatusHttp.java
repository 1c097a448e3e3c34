package org.bftws.axis2.monitoring;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/** Fetches a node's status page over real HTTP, as an operator's script would. */
public final class StatusHttp {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private StatusHttp() {
    }

    /** {@code method path} on 127.0.0.1:{@code port}, with an empty body for methods that take one. */
    public static HttpResponse<String> send(int port, String method, String path) throws IOException,
            InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20))
                .method(method, method.equals("GET") ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString("{}"))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** GET /bftws/status, checked to be 200 JSON, parsed. */
    public static JsonObject status(int port) throws IOException, InterruptedException {
        HttpResponse<String> r = send(port, "GET", "/bftws/status");
        if (r.statusCode() != 200 || !r.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
            throw new AssertionError("status page answered " + r.statusCode() + " " + r.headers().map() + ": "
                    + r.body());
        }
        return JsonParser.parseString(r.body()).getAsJsonObject();
    }
}
