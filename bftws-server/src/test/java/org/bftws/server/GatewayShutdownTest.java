package org.bftws.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bftws gateway} in its own JVM, stopped with SIGTERM as a service manager stops it: it exits within 2 s
 * whatever the group's state (docs/gateway.md), here after the group it called went down with a caller's request
 * still in flight: the gateway is seen retransmitting it, and its caller has no answer yet, when SIGTERM is sent.
 */
class GatewayShutdownTest {

    private static final String ECHO = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>"
            + "<e:echo xmlns:e=\"http://bftws.org/samples/echo\"><e:item>x</e:item></e:echo></s:Body></s:Envelope>";

    /** The client library's class that logs each failed attempt to reach a node. */
    private static final String TRANSMISSION = "org.bftws.axis2.client.Transmission";

    @TempDir
    Path dir;

    @Test
    void theGatewayExitsWithinTwoSecondsOfSigtermWhenItsGroupIsDownAndACallIsInFlight() throws Exception {
        EchoGroup group = new EchoGroup(dir, false);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-cp", System.getProperty("java.class.path"), BftwsServer.class.getName(),
                "gateway", "--listen", "127.0.0.1:0", "--party", "client1", "--conf", group.replicasXml.toString(),
                "--threads", "1")); // one worker, one sequence: the first call is its message 1, the second message 2
        // each failed attempt to reach a replica is logged at debug ("2: attempt 0 to ... failed"): the test sees the
        // in-flight call being retried
        command.add(2, "-Dorg.slf4j.simpleLogger.log." + TRANSMISSION + "=debug");
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
            int before = output.size();
            CompletableFuture<HttpResponse<String>> inFlight = http.sendAsync(call, HttpResponse.BodyHandlers
                    .ofString()); // and a call it keeps retransmitting
            awaitLine(output, before, line -> line.contains(TRANSMISSION + " - 2: attempt ")
                    && line.contains(" failed "), "the gateway tries to send the call (message 2) to the replicas that"
                    + " are gone");
            assertFalse(inFlight.isDone(), "the call is still in flight when SIGTERM is sent: " + inFlight);
            assertTrue(gateway.isAlive());

            long sent = System.nanoTime();
            gateway.toHandle().destroy(); // SIGTERM
            boolean exited = gateway.waitFor(30, TimeUnit.SECONDS);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
            assertTrue(exited, "still running 30 s after SIGTERM:\n" + String.join("\n", output));
            // The property is docs/gateway.md's "exits within 2 s". The gateway's own waits on SIGTERM add up to
            // 1 s (Gateway.CALL_GRACE_MILLIS 400 ms for the call in flight, then GroupCaller's 300 ms for terminating
            // its sequence and 300 ms for stopping its engine); the other second is the margin for the signal, the
            // shutdown hook and the JVM's exit on a loaded machine. Without those bounds the gateway would wait out
            // the call's retransmission schedule, minutes.
            assertTrue(millis < 2_000, "exited " + millis + " ms after SIGTERM:\n" + String.join("\n", output));
            // the caller was not left hanging: its connection was closed unanswered
            ExecutionException ended = assertThrows(ExecutionException.class, () -> inFlight.get(30, TimeUnit.SECONDS),
                    "the in-flight call got an answer from a gateway whose group is down");
            assertTrue(ended.getCause() instanceof java.io.IOException, ended.toString());
        } finally {
            if (gateway.isAlive()) {
                gateway.destroyForcibly();
            }
            group.close();
        }
    }

    /** Waits (60 s at most) for a line of {@code output} from index {@code from} on that {@code matches}. */
    private static void awaitLine(List<String> output, int from, java.util.function.Predicate<String> matches,
                                  String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            synchronized (output) {
                if (output.subList(from, output.size()).stream().anyMatch(matches)) {
                    return;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 60 s: " + what + ":\n" + String.join("\n", output));
            }
            Thread.sleep(20);
        }
    }
}
