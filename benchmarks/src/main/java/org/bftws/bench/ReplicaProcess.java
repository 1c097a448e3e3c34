package org.bftws.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One replica JVM the testbed started ({@link EchoReplica}): its output goes line by line to its log file while
 * this watches for {@code ready NAME PORT} and the answers to its standard-input commands. Its standard input stays open: closing it
 * (or this JVM dying) stops the replica, so no replica outlives the testbed. Only this process is ever signalled.
 */
final class ReplicaProcess {

    private static final int TAIL_LINES = 30;
    /** The commands of {@link EchoReplica}'s standard input that answer with one line. */
    private static final List<String> ANSWERS = List.of("stats", "state", "entries", "measurements");
    /** Answers too long or too frequent for the log (a fault test reads every replica's state many times). */
    private static final List<String> QUIET_ANSWERS = List.of("state", "entries");

    private final String name;
    private final Process process;
    private final Path log;
    private final OutputStream stdin;
    private final CompletableFuture<Integer> ready = new CompletableFuture<>();
    /** Answers to commands on its standard input: lines {@code COMMAND NAME ...}. */
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final Object questions = new Object();
    private final Deque<String> tail = new ArrayDeque<>();

    private ReplicaProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.stdin = process.getOutputStream();
    }

    /** Starts {@code command}, its standard output and error both to {@code log}. */
    static ReplicaProcess start(String name, List<String> command, Path log) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        ReplicaProcess r = new ReplicaProcess(name, p, log);
        Thread pump = new Thread(r::pump, "output-" + name);
        pump.setDaemon(true);
        pump.start();
        return r;
    }

    /**
     * The command line of replica {@code name}'s JVM running {@code replicaArgs} on this JVM's classpath. Extra JVM
     * options come from the environment variable {@code BFTWS_REPLICA_JAVA_OPTS} (space-separated), with
     * {@code {name}} replaced by the replica's name: e.g. a Flight Recorder file per replica. A replica that runs out
     * of memory exits rather than limping on with dead threads: the group tolerates a replica that is gone, and its
     * data directory lets it be restarted.
     */
    static List<String> javaCommand(String name, String heap, List<String> replicaArgs) {
        return javaCommand(name, heap, List.of(), replicaArgs);
    }

    /** As {@link #javaCommand(String, String, List)}, with JVM options such as {@code -Decho.stateElements=N}. */
    static List<String> javaCommand(String name, String heap, List<String> jvmOptions, List<String> replicaArgs) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx" + heap, "-XX:+ExitOnOutOfMemoryError"));
        command.addAll(jvmOptions);
        String extra = System.getenv("BFTWS_REPLICA_JAVA_OPTS");
        if (extra != null && !extra.isBlank()) {
            for (String option : extra.trim().split("\\s+")) {
                command.add(option.replace("{name}", name));
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), EchoReplica.class.getName()));
        command.addAll(replicaArgs);
        return command;
    }

    private void pump() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)); BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                boolean answer = isAnswer(line);
                if (!answer || !QUIET_ANSWERS.contains(line.substring(0, line.indexOf(' ')))) {
                    out.write(line);
                    out.newLine();
                    out.flush();
                    remember(line);
                }
                if (line.startsWith("ready " + name + " ")) {
                    ready.complete(Integer.parseInt(line.substring(line.lastIndexOf(' ') + 1).trim()));
                } else if (answer) {
                    answers.add(line);
                }
            }
        } catch (IOException | RuntimeException e) {
            ready.completeExceptionally(new IOException(name + ": reading its output failed: " + e, e));
            return;
        }
        ready.completeExceptionally(new IOException(name + " ended before it was ready" + exitStatus()));
    }

    private boolean isAnswer(String line) {
        int space = line.indexOf(' ');
        return space > 0 && ANSWERS.contains(line.substring(0, space)) && line.startsWith(name + " ", space + 1);
    }

    private synchronized void remember(String line) {
        tail.addLast(line);
        if (tail.size() > TAIL_LINES) {
            tail.removeFirst();
        }
    }

    /** The last lines it printed, to show why it failed. */
    synchronized List<String> tail() {
        return List.copyOf(tail);
    }

    private String exitStatus() {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? " (exit status " + process.exitValue() + ")" : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** Waits for its {@code ready} line; returns the port it serves on. */
    int awaitReady(Duration timeout) throws IOException, InterruptedException {
        try {
            return ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IOException(name + " was not ready after " + timeout.toSeconds() + " s");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    /** Asks for its counters; empty when it does not answer in time (it is dead or stuck). */
    Optional<String> stats(Duration timeout) throws InterruptedException {
        return ask("stats", timeout);
    }

    /**
     * Sends {@code command} (stats, state, entries, measurements) and returns its answer without the leading
     * {@code COMMAND NAME }; empty when it does not answer in time (it is dead or stuck).
     */
    Optional<String> ask(String command, Duration timeout) throws InterruptedException {
        if (!ANSWERS.contains(command)) {
            throw new IllegalArgumentException("not a command that answers: " + command);
        }
        // One question at a time; not on this object's monitor, which the output pump needs for the tail.
        synchronized (questions) {
            return askNow(command, timeout);
        }
    }

    private Optional<String> askNow(String command, Duration timeout) throws InterruptedException {
        if (!process.isAlive()) {
            return Optional.empty();
        }
        answers.clear(); // a late answer to an earlier request that timed out must not pass for this one
        try {
            stdin.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            return Optional.empty();
        }
        String prefix = command + " " + name + " ";
        long deadline = System.nanoTime() + timeout.toNanos();
        for (long left = timeout.toNanos(); left > 0; left = deadline - System.nanoTime()) {
            String line = answers.poll(left, TimeUnit.NANOSECONDS);
            if (line != null && line.startsWith(prefix)) {
                return Optional.of(line.substring(prefix.length()));
            }
        }
        return Optional.empty();
    }

    /** CPU time the process has used so far; empty once it has ended (or where the OS does not say). */
    Optional<Duration> cpu() {
        return process.info().totalCpuDuration();
    }

    /**
     * Stops it: end of input first (it shuts its node down cleanly), then SIGTERM, then SIGKILL, {@code grace} apart.
     * Returns how it ended.
     */
    String stop(Duration grace) throws InterruptedException {
        if (!process.isAlive()) {
            return "had already ended" + exitStatus();
        }
        try {
            stdin.close();
        } catch (IOException e) {
            // the pipe is gone: the process is ending anyway, or the signals below end it
        }
        if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            return "stopped" + exitStatus();
        }
        // through the handle: Process.destroy would also close our end of its output, losing its last log lines
        process.toHandle().destroy();
        if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            return "stopped by SIGTERM" + exitStatus();
        }
        process.toHandle().destroyForcibly();
        process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
        return "killed (SIGKILL) after it ignored end of input and SIGTERM";
    }

    /** Kills it at once (SIGKILL): a crash, for --crash. */
    void crash() {
        process.toHandle().destroyForcibly();
    }

    boolean alive() {
        return process.isAlive();
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }
}
