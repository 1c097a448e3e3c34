package org.bftws.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bftws gateway} in its own JVM, stopped with SIGTERM as a service manager stops it: it exits promptly whatever
 * the group's state, here after the group it called went down with a caller's request still in flight.
 */
class GatewayShutdownTest {

    private static final String ECHO = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>"
            + "<e:echo xmlns:e=\"http://bftws.org/samples/echo\"><e:item>x</e:item></e:echo></s:Body></s:Envelope>";

    @TempDir
    Path dir;

    @Test
    void theGatewayExitsWithinTwoSecondsOfSigtermWhenItsGroupIsDownAndACallIsInFlight() throws Exception {
        EchoGroup group = new EchoGroup(dir, false);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-cp", System.getProperty("java.class.path"), BftwsServer.class.getName(),
                "gateway", "--listen", "127.0.0.1:0", "--party", "client1", "--conf", group.replicasXml.toString()));
        Process gateway = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> output = java.util.Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(gateway.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    output.add(line);
                    if (line.startsWith("ready gateway ")) {
                        ready.complete(line.substring("ready gateway ".length()));
                    }
                }
            } catch (java.io.IOException e) {
                // the process ended
            }
            ready.complete(null);
        }, "gateway-output");
        reader.setDaemon(true);
        reader.start();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try {
            String authority = ready.get(120, TimeUnit.SECONDS);
            assertTrue(authority != null, "the gateway did not start:\n" + String.join("\n", output));
            HttpRequest call = HttpRequest.newBuilder(URI.create("http://" + authority + "/axis2/services/EchoService"))
                    .timeout(Duration.ofSeconds(60)).header("Content-Type", "text/xml; charset=UTF-8")
                    .header("SOAPAction", "\"http://bftws.org/samples/echo/echo\"")
                    .POST(HttpRequest.BodyPublishers.ofString(ECHO)).build();
            assertEquals(200, http.send(call, HttpResponse.BodyHandlers.ofString()).statusCode());

            group.close(); // every replica gone: the gateway's sequence to the group cannot be terminated
            http.sendAsync(call, HttpResponse.BodyHandlers.ofString()); // and a call it keeps retransmitting
            Thread.sleep(1_000);

            long sent = System.nanoTime();
            gateway.toHandle().destroy(); // SIGTERM
            boolean exited = gateway.waitFor(30, TimeUnit.SECONDS);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
            assertTrue(exited, "still running 30 s after SIGTERM:\n" + String.join("\n", output));
            assertTrue(millis < 2_000, "exited " + millis + " ms after SIGTERM:\n" + String.join("\n", output));
        } finally {
            if (gateway.isAlive()) {
                gateway.destroyForcibly();
            }
            group.close();
        }
    }
}
