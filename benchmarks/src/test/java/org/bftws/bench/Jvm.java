package org.bftws.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A main class of this module in its own JVM (-Xmx256m, this JVM's classpath), as the launcher runs it; its
 * standard output and error are collected line by line. Tests stop what they start through this handle only.
 */
final class Jvm implements AutoCloseable {

    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private final Thread reader;

    private Jvm(Process process) {
        this.process = process;
        this.reader = new Thread(this::read, "jvm-output");
        reader.setDaemon(true);
        reader.start();
    }

    static Jvm start(Class<?> main, List<String> args) throws IOException {
        return start(List.of(), Map.of(), main, args);
    }

    /**
     * As {@link #start(Class, List)}, started through {@code prefix} (a command that runs the rest of the line, or
     * empty) with {@code environment} put into this JVM's environment.
     */
    static Jvm start(List<String> prefix, Map<String, String> environment, Class<?> main, List<String> args)
            throws IOException {
        return start(prefix, environment, SHORT_RUN, main, args);
    }

    /**
     * As {@link #start(Class, List)}, with the JVM's default compilers: for a command that is itself CPU work of
     * some seconds, such as making RSA keys, where the client compiler alone (without C2's big-integer intrinsics)
     * spends many times longer. The JVMs it starts still take {@link #SHORT_RUN} from the environment.
     */
    static Jvm startWithBothCompilers(Class<?> main, List<String> args) throws IOException {
        return start(List.of(), Map.of(), List.of(), main, args);
    }

    private static Jvm start(List<String> prefix, Map<String, String> environment, List<String> jvmOptions,
            Class<?> main, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m"));
        command.addAll(jvmOptions);
        // the ports this test JVM's tools give their nodes (NodeServer.freePorts): its children take them from its range
        String ports = System.getProperty(org.bftws.axis2.standalone.LoopbackPorts.PROPERTY);
        if (ports != null) {
            command.add("-D" + org.bftws.axis2.standalone.LoopbackPorts.PROPERTY + "=" + ports);
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        return new Jvm(builder.start());
    }

    /**
     * The JVM options of every JVM a test of this module starts: those this module's Surefire configuration sets in
     * {@code BFTWS_REPLICA_JAVA_OPTS} for every test JVM (the client compiler only and the serial collector), which
     * {@link ReplicaProcess} also adds to every replica's command line, so that a group a test starts itself runs the
     * same. A run of seconds spends much of its CPU compiling with C2 code it hardly uses; on two cores, with several
     * JVMs starting at once, C1 alone roughly halves the CPU a run takes. No test here measures speed against a
     * target: the measurements are tools (docs/testing.md). Empty where the variable is not set (a test started
     * outside Maven).
     */
    static final List<String> SHORT_RUN = Optional.ofNullable(System.getenv("BFTWS_REPLICA_JAVA_OPTS"))
            .filter(o -> !o.isBlank()).map(o -> List.of(o.trim().split("\\s+"))).orElse(List.of());

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                }
            }
        } catch (IOException e) {
            // the process ended; what it printed so far is kept
        }
    }

    /** Waits for a line matching {@code wanted}; fails the test with the output so far when none comes in time. */
    String awaitLine(Predicate<String> wanted, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lines) {
            while (true) {
                for (String l : lines) {
                    if (wanted.test(l)) {
                        return l;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || (!process.isAlive() && !reader.isAlive())) {
                    throw new AssertionError("no such line after " + timeout.toSeconds() + " s; output:\n"
                            + String.join("\n", lines));
                }
                TimeUnit.NANOSECONDS.timedWait(lines, Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)));
            }
        }
    }

    /** Waits for the process to end and its output to be read; returns the exit status. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("still running after " + timeout.toSeconds() + " s; output:\n" + output());
        }
        reader.join(5_000);
        return process.exitValue();
    }

    List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    String output() {
        return String.join("\n", lines());
    }

    void closeInput() throws IOException {
        process.getOutputStream().close();
    }

    /**
     * SIGTERM, as a service manager would stop it (Ctrl-C sends SIGINT, which the JVM handles alike). Sent through
     * the handle, because Process.destroy also closes our end of its output, and what it prints while stopping
     * would be lost.
     */
    void terminate() {
        process.toHandle().destroy();
    }

    /** Ends the process if a test left it running (SIGTERM, then SIGKILL after 10 s). */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.toHandle().destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.toHandle().destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.toHandle().destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
