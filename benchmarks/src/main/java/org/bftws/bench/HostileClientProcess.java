package org.bftws.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.bftws.bench.hostile.HostileClient;
import org.bftws.bench.hostile.HostileMode;

/**
 * One hostile client's JVM ({@link HostileClient}, one attack mode), as a {@code --hostile} run drives it: started
 * with its command line, told {@code start} and {@code stop} on its standard input, its output copied to its log and
 * read for its readiness and its running totals ({@code hostile sent=.. replied=.. faults=.. spoilt=..}).
 */
final class HostileClientProcess {
    private static final String HEAP = "256m";

    final HostileMode mode;
    final Path log;
    private final CountDownLatch ready = new CountDownLatch(1);
    private final AtomicLong sent = new AtomicLong();
    private final PrintStream out;
    private Process process;
    private OutputStream stdin;
    /** The client's last totals line, and its fields: sent, replied, faults, errors, spoilt, ... */
    private volatile String totals = "";
    private volatile Map<String, String> fields = Map.of();

    HostileClientProcess(HostileMode mode, Path log, PrintStream out) {
        this.mode = mode;
        this.log = log;
        this.out = out;
    }

    /** Starts the JVM; {@code args} are its options beside {@code --mode}. */
    void launch(List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx" + HEAP, "-XX:+ExitOnOutOfMemoryError", "-cp",
                System.getProperty("java.class.path"), HostileClient.class.getName(), "--mode", mode.label()));
        command.addAll(args);
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
        stdin = process.getOutputStream();
        Thread pump = new Thread(this::pump, "output-hostile-" + mode.label());
        pump.setDaemon(true);
        pump.start();
        out.println("hostile client " + mode.label() + ": pid " + process.pid() + ", log " + log);
    }

    private void pump() {
        try {
            ChildOutput.copy(process, log, line -> {
                if (line.startsWith("ready hostile")) {
                    ready.countDown();
                } else if (line.startsWith("hostile: ") && line.contains(" opened their sequence")) {
                    out.println("hostile client " + mode.label() + ": " + line.substring("hostile: ".length()));
                } else if (line.startsWith("hostile sent=")) {
                    totals = line.substring("hostile ".length());
                    fields = ReplicaGroup.fields(line);
                    sent.set(Long.parseLong(fields.getOrDefault("sent", "0")));
                }
            });
        } catch (IOException | RuntimeException e) {
            // the process ended; its log holds what it printed
        }
    }

    /** Waits until it said it is set up, at most {@code nanos}. */
    void awaitReady(long nanos) throws InterruptedException {
        ready.await(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }

    /** Whether it said it is set up and still runs. */
    boolean isReady() {
        return ready.getCount() == 0 && process != null && process.isAlive();
    }

    /** Requests sent so far, by its last totals line. */
    long sent() {
        return sent.get();
    }

    /** Its last totals line ({@code sent=.. replied=..}), empty before the first. */
    String totals() {
        return totals;
    }

    /** The fields of its last totals line. */
    Map<String, String> fields() {
        return fields;
    }

    void start() {
        send("start");
    }

    private void send(String command) {
        try {
            stdin.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            // it has ended already
        }
    }

    /** Tells the JVM to stop and waits for it to end (forcibly after {@code seconds}). */
    void stop(int seconds) {
        if (process == null || !process.isAlive()) {
            return;
        }
        send("stop");
        try {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.toHandle().destroyForcibly();
                process.waitFor(seconds, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.toHandle().destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
