package org.bftws.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.bftws.axis2.standalone.NodeServer;
import org.bftws.samples.echo.EchoServiceArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged launcher, run as a host runs it: {@code java -jar bftws-server-VERSION.jar} with {@code lib/} beside
 * it and nothing else on the classpath. It prints its usage, makes a deployment's keys and serves a node of it (the
 * status page answers), so the jar's manifest names every library a node needs.
 */
class PackagedServerIT {

    private static final Path JAR = Path.of(System.getProperty("bftws.server.jar", "target/missing.jar"));

    @Test
    void theJarWithItsLibFolderListsItsCommandsMakesKeysAndServesANode(@TempDir Path dir) throws Exception {
        assertTrue(Files.isRegularFile(JAR), "the packaged jar: " + JAR);

        Run usage = run(dir, "--help");
        assertEquals(0, usage.status(), usage.output());
        for (String command : List.of("replica", "keygen", "gateway")) {
            assertTrue(usage.output().contains(command), "usage lists " + command + ": " + usage.output());
        }

        int[] ports = NodeServer.freePortsAvoiding(8, List.of());
        Path replicasXml = Files.writeString(dir.resolve("replicas.xml"), replicasXml(ports));
        Run keygen = run(dir, "keygen", "--conf", replicasXml.toString());
        assertEquals(0, keygen.status(), keygen.output());
        assertTrue(Files.isRegularFile(dir.resolve("keys/truststore.p12")), keygen.output());

        Path services = Files.createDirectories(dir.resolve("services"));
        EchoServiceArchive.writeTo(services);
        Process node = start(dir, "replica", "--id", "0", "--conf", replicasXml.toString(), "--services",
                services.toString(), "--run-dir", dir.resolve("replica0").toString());
        try {
            String ready = awaitLine(node, "ready replica0", Duration.ofSeconds(90));
            assertTrue(ready.startsWith("ready replica0"), ready);
            HttpResponse<String> status = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + ports[0] + "/bftws/status")).timeout(Duration.ofSeconds(10))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, status.statusCode());
            assertTrue(status.body().contains("\"party\":\"replica0\""), status.body());
        } finally {
            node.destroy();
            if (!node.waitFor(20, TimeUnit.SECONDS)) {
                node.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private record Run(int status, String output) {
    }

    private static Process start(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-jar", JAR.toAbsolutePath().toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    }

    private static Run run(Path dir, String... args) throws Exception {
        Process p = start(dir, args);
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return e.toString();
            }
        });
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("bftws-server " + String.join(" ", args) + " did not end within 120 s");
        }
        return new Run(p.exitValue(), output.get(10, TimeUnit.SECONDS));
    }

    /** Reads the node's output until a line starting with {@code prefix}; fails with what it printed otherwise. */
    private static String awaitLine(Process p, String prefix, Duration timeout) throws Exception {
        StringBuilder seen = new StringBuilder();
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    synchronized (seen) {
                        seen.append(l).append('\n');
                    }
                    if (l.startsWith(prefix)) {
                        return l;
                    }
                }
                return "the node ended: " + seen;
            } catch (IOException e) {
                return "the node's output failed: " + e;
            }
        });
        try {
            return line.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            synchronized (seen) {
                throw new AssertionError("no '" + prefix + "' within " + timeout + "; it printed:\n" + seen, e);
            }
        }
    }

    private static String replicasXml(int[] ports) {
        StringBuilder b = new StringBuilder("<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>\n"
                + "<group service=\"EchoService\" endpoint=\"http://echo.bftws.test/axis2/services/EchoService\""
                + " f=\"1\">\n<security profile=\"mac\"/>\n");
        for (int i = 0; i < 4; i++) {
            String base = "http://127.0.0.1:" + ports[i] + "/axis2/services/";
            b.append("<node id=\"").append(i).append("\" name=\"replica").append(i).append("\" serviceEndpoint=\"")
                    .append(base).append("EchoService\" controlEndpoint=\"").append(base)
                    .append("BftControl\" channelEndpoint=\"tcp://127.0.0.1:").append(ports[4 + i]).append("\"/>\n");
        }
        return b.append("</group>\n<client name=\"client1\"/>\n</replicas>\n").toString();
    }
}
