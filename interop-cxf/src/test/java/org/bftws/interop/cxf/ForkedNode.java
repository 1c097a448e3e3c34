package org.bftws.interop.cxf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A bftws node with the echo sample in its own JVM (org.bftws.axis2.standalone.NodeMain from ../bftws-module), so Axis2's
 * libraries and CXF's never meet on one classpath. Talks to it over its standard input and output.
 */
final class ForkedNode implements AutoCloseable {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private final Process process;
    private final BufferedReader out;
    private final PrintWriter in;
    final int port;

    ForkedNode(Path dir) throws IOException, InterruptedException {
        Path repo = dir.resolve("repo");
        Files.createDirectories(repo.resolve("modules"));
        Files.copy(ROOT.resolve("bftws-module/target/axis2-modules/addressing.mar"),
                repo.resolve("modules/addressing.mar"), StandardCopyOption.REPLACE_EXISTING);
        zip(ROOT.resolve("samples/echo-service/target/classes"), repo.resolve("services/EchoService.aar"));
        String classpath = ROOT.resolve("bftws-module/target/classes") + java.io.File.pathSeparator
                + Files.readString(ROOT.resolve("bftws-module/target/runtime.classpath")).trim();
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", classpath, "org.bftws.axis2.standalone.NodeMain", repo.toString(),
                ROOT.resolve("conf/axis2.xml").toString(), Integer.toString(port))
                .redirectError(dir.resolve("node.log").toFile()).start();
        out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        String first = out.readLine();
        if (first == null || !first.startsWith("bftws node listening")) {
            process.destroyForcibly();
            throw new IOException("the forked node did not start (see " + dir.resolve("node.log") + "): " + first);
        }
    }

    String endpoint(String service) {
        return "http://127.0.0.1:" + port + "/axis2/services/" + service;
    }

    /** The node's WS-RM counters, e.g. {@code created=1 terminated=1 accepted=3 ...}. */
    String stats() throws IOException {
        in.println("stats");
        String line = out.readLine();
        if (line == null || !line.startsWith("stats ")) {
            throw new IOException("unexpected answer from the node: " + line);
        }
        return line.substring("stats ".length());
    }

    /** One counter from {@link #stats()}. */
    long counter(String stats, String name) {
        for (String part : stats.split(" ")) {
            if (part.startsWith(name + "=")) {
                return Long.parseLong(part.substring(name.length() + 1));
            }
        }
        throw new IllegalArgumentException("no counter " + name + " in " + stats);
    }

    @Override
    public void close() {
        in.println("stop");
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void zip(Path dir, Path target) throws IOException {
        Files.createDirectories(target.getParent());
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        try (OutputStream o = Files.newOutputStream(target); ZipOutputStream z = new ZipOutputStream(o)) {
            for (Path f : files) {
                z.putNextEntry(new ZipEntry(dir.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, z);
                z.closeEntry();
            }
        }
    }
}
