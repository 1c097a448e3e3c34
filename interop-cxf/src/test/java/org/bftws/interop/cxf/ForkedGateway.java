package org.bftws.interop.cxf;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Four echo replicas (replica3 returning wrong, authentic replies) and the bftws voting gateway in their own JVM
 * (org.bftws.server.EchoGatewayMain from ../bftws-server's tests), so Axis2's libraries and CXF's never meet on one
 * classpath. Everything listens on 127.0.0.1 and free ports.
 */
final class ForkedGateway implements AutoCloseable {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private final Process process;
    private final BufferedReader out;
    private final PrintWriter in;
    final int port;

    private final boolean tls;
    /** The deployment's keys (party keystores, truststore.p12, ca.pem), in the forked group's directory. */
    final Path keys;

    ForkedGateway(Path dir) throws IOException {
        this(dir, false);
    }

    /**
     * ... with {@code tls}: the deployment has {@code <tls/>}, the replicas serve HTTPS and the gateway serves its
     * callers over HTTPS, requiring a certificate the deployment CA issued.
     */
    ForkedGateway(Path dir, boolean tls) throws IOException {
        this.tls = tls;
        this.keys = dir.resolve("group").resolve("keys");
        Path server = ROOT.resolve("bftws-server/target");
        String classpath = server.resolve("test-classes") + File.pathSeparator + server.resolve("classes")
                + File.pathSeparator + Files.readString(server.resolve("test.classpath")).trim();
        process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m",
                "-cp", classpath, "org.bftws.server.EchoGatewayMain", dir.resolve("group").toString(), tls ? "tls" : "plain")
                .redirectError(dir.resolve("gateway.log").toFile()).start();
        out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        String first = out.readLine();
        if (first == null || !first.startsWith("ready ")) {
            process.destroyForcibly();
            throw new IOException("the group and gateway did not start (see " + dir.resolve("gateway.log") + "): "
                    + first);
        }
        port = Integer.parseInt(first.substring("ready ".length()).trim());
    }

    String endpoint(String service) {
        return (tls ? "https" : "http") + "://127.0.0.1:" + port + "/axis2/services/" + service;
    }

    /** How many replies the Byzantine replica rewrote so far. */
    int wrongReplies() throws IOException {
        in.println("wrong");
        String line = out.readLine();
        if (line == null || !line.startsWith("wrong ")) {
            throw new IOException("unexpected answer: " + line);
        }
        return Integer.parseInt(line.substring("wrong ".length()).trim());
    }

    @Override
    public void close() {
        in.println("stop");
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
