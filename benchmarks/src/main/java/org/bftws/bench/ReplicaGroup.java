package org.bftws.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.bftws.bench.byzantine.ByzantineMode;
import org.bftws.config.SecurityProfile;
import org.bftws.samples.kv.KvServiceArchive;

/**
 * Four replica JVMs (Configuration I, f=1) of the echo sample, or of a service deployed from its archive
 * ({@link ArchivedService}), on this machine that a fault test or a measurement can crash, restart and question:
 * one {@link ReplicaProcess} per replica started exactly as the testbed starts them, a replicas.xml with the
 * protocol settings and data directory asked for, and the answers of the replicas' standard-input commands
 * ({@code stats}, {@code state}, {@code entries}, {@code measurements}). Closing it stops every replica it started
 * (only those, by their handles).
 */
final class ReplicaGroup implements AutoCloseable {

    static final int SIZE = 4;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    /**
     * @param runDir     where replicas.xml, the logs, the repositories and the data directory go
     * @param keys       the directory of the testbed's keys (made when missing)
     * @param security   the group's profile
     * @param protocol   a {@code <protocol .../>} element, or null for the defaults
     * @param durable    whether the group has a data directory ({@code runDir/data})
     * @param jvmOptions options for every replica JVM, e.g. {@code -Decho.stateElements=10000}
     * @param heap       each replica's maximum heap, e.g. "256m"
     * @param byzantine  the lie one replica tells (it runs with {@code --byzantine MODE}, allowed in replicas.xml for
     *                   that node only), or null
     * @param service    the service the replicas run from its archive ({@code --services}) instead of the echo, or
     *                   null for the echo
     */
    record Settings(Path runDir, Path keys, SecurityProfile security, String protocol, boolean durable,
                    List<String> jvmOptions, String heap, ByzantineMode byzantine, ArchivedService service) {

        /** As above; {@code kv}: the replicas run the key-value sample ({@value TestbedDeployment#KV_SERVICE}). */
        Settings(Path runDir, Path keys, SecurityProfile security, String protocol, boolean durable,
                 List<String> jvmOptions, String heap, ByzantineMode byzantine, boolean kv) {
            this(runDir, keys, security, protocol, durable, jvmOptions, heap, byzantine,
                    kv ? ArchivedService.KV : null);
        }

        Settings(Path runDir, Path keys, SecurityProfile security, String protocol, boolean durable,
                 List<String> jvmOptions, String heap, ByzantineMode byzantine) {
            this(runDir, keys, security, protocol, durable, jvmOptions, heap, byzantine, (ArchivedService) null);
        }

        Settings(Path runDir, Path keys, SecurityProfile security, String protocol, boolean durable,
                 List<String> jvmOptions, String heap) {
            this(runDir, keys, security, protocol, durable, jvmOptions, heap, null, (ArchivedService) null);
        }
    }

    /**
     * A service the replicas deploy from its archive: its Axis2 name (the group's {@code service}), its group
     * endpoint, and what writes the archive into a {@code services} directory.
     */
    record ArchivedService(String name, String endpoint, ArchiveWriter archive) {

        /** The key-value sample. */
        static final ArchivedService KV = new ArchivedService(TestbedDeployment.KV_SERVICE,
                TestbedDeployment.KV_ENDPOINT, KvServiceArchive::writeTo);

        /** Writes a service archive into an Axis2 repository's services directory. */
        interface ArchiveWriter {
            Path writeTo(Path servicesDir) throws IOException;
        }
    }

    /**
     * Where each replica runs: {@code hosts} its address in replicas.xml (null: free loopback ports) and
     * {@code prefixes} what its command line starts with (e.g. {@code ip netns exec NS}: a network stack of its own).
     */
    record Placement(List<String> hosts, List<List<String>> prefixes) {

        /** Every replica on this machine's loopback, its JVM started as it is. */
        static final Placement LOOPBACK = new Placement(null, List.of(List.of(), List.of(), List.of(), List.of()));

        Placement {
            if (prefixes.size() != SIZE || hosts != null && hosts.size() != SIZE) {
                throw new IllegalArgumentException("a placement names " + SIZE + " replicas");
            }
            hosts = hosts == null ? null : List.copyOf(hosts);
            prefixes = List.copyOf(prefixes);
        }
    }

    private final Settings settings;
    private final Placement placement;
    private final TestbedDeployment deployment;
    /** Each replica's extra JVM options for its current run (a clock offset), besides the settings'. */
    private final List<List<String>> extraOptions =
            new ArrayList<>(List.of(List.of(), List.of(), List.of(), List.of()));
    private final ReplicaProcess[] replicas = new ReplicaProcess[SIZE];
    private final int[] starts = new int[SIZE];
    /** Each replica's HTTP port, from its ready line (the same after a restart: replicas.xml names it). */
    private final int[] ports = new int[SIZE];

    private ReplicaGroup(Settings settings, Placement placement, TestbedDeployment deployment) {
        this.settings = settings;
        this.placement = placement;
        this.deployment = deployment;
    }

    /** Writes the deployment, makes keys if needed and starts the four replicas; returns once all are ready. */
    static ReplicaGroup start(Settings settings) throws IOException, InterruptedException {
        return start(settings, Placement.LOOPBACK);
    }

    /** As above, each replica where {@code placement} puts it. */
    static ReplicaGroup start(Settings settings, Placement placement) throws IOException, InterruptedException {
        Files.createDirectories(settings.runDir());
        TestbedKeys keys = new TestbedKeys(settings.keys());
        if (settings.security() != SecurityProfile.NONE) {
            keys.ensure();
        }
        ArchivedService service = settings.service();
        Path data = settings.durable() ? settings.runDir().resolve("data") : null;
        TestbedDeployment deployment = service == null
                ? TestbedDeployment.writeGroup(settings.runDir(), settings.security(), keys, settings.protocol(), data,
                        settings.byzantine(), false)
                : TestbedDeployment.writeGroup(settings.runDir(), settings.security(), keys, settings.protocol(), data,
                        settings.byzantine(), service.name(), service.endpoint(), placement.hosts());
        if (service != null) {
            service.archive().writeTo(settings.runDir().resolve("services"));
        }
        if (service == null && placement.hosts() != null) {
            throw new IllegalArgumentException("replicas on hosts of their own run a service from its archive");
        }
        ReplicaGroup group = new ReplicaGroup(settings, placement, deployment);
        try {
            for (int i = 0; i < SIZE; i++) {
                group.launch(i);
            }
            for (int i = 0; i < SIZE; i++) {
                group.awaitReady(i);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            group.close();
            throw e;
        }
        return group;
    }

    /** The replicas.xml of this group (clients of the group read it too). */
    Path replicasXml() {
        return deployment.file();
    }

    static String name(int i) {
        return "replica" + i;
    }

    private void launch(int i) throws IOException {
        String name = name(i);
        List<String> args = new ArrayList<>(List.of("--name", name, "--conf", deployment.file().toString(),
                "--run-dir", settings.runDir().resolve(name).toString()));
        if (settings.service() != null) {
            args.addAll(List.of("--services", settings.runDir().resolve("services").toString()));
        }
        if (settings.byzantine() != null && i == settings.byzantine().testbedNode()) {
            args.addAll(List.of("--byzantine", settings.byzantine().label()));
        }
        String log = starts[i] == 0 ? name + ".log" : name + ".restart" + starts[i] + ".log";
        starts[i]++;
        List<String> jvmOptions = new ArrayList<>(settings.jvmOptions());
        jvmOptions.addAll(extraOptions.get(i));
        List<String> command = new ArrayList<>(placement.prefixes().get(i));
        command.addAll(ReplicaProcess.javaCommand(name, settings.heap(), jvmOptions, args));
        replicas[i] = ReplicaProcess.start(name, command, settings.runDir().resolve(log));
    }

    private void awaitReady(int i) throws IOException, InterruptedException {
        try {
            ports[i] = replicas[i].awaitReady(READY_TIMEOUT);
        } catch (IOException e) {
            throw new IOException(e.getMessage() + "; its last lines:\n  | "
                    + String.join("\n  | ", replicas[i].tail()), e);
        }
    }

    /** Kills replica {@code i} at once (SIGKILL, a crash) and waits until it is gone. */
    void crash(int i) throws InterruptedException {
        replicas[i].crash();
        replicas[i].stop(STOP_GRACE); // reaps it; returns at once for a dead process
    }

    /** Stops replica {@code i} cleanly (end of input). */
    String stop(int i) throws InterruptedException {
        return replicas[i].stop(STOP_GRACE);
    }

    /**
     * Starts replica {@code i} again on its port and waits until it is ready; with {@code keepData} false its data
     * directory is deleted first (a replacement with an empty disk: it must fetch the state).
     */
    void restart(int i, boolean keepData) throws IOException, InterruptedException {
        if (replicas[i].alive()) {
            throw new IllegalStateException(name(i) + " is still running");
        }
        if (!keepData) {
            deleteTree(dataDirectory(i));
        }
        launch(i);
        awaitReady(i);
    }

    /**
     * As {@link #restart(int, boolean)}, the replica's JVM started with {@code jvmOptions} besides the group's (e.g.
     * a clock offset) from now on, until the next call of this.
     */
    void restart(int i, boolean keepData, List<String> jvmOptions) throws IOException, InterruptedException {
        extraOptions.set(i, List.copyOf(jvmOptions));
        restart(i, keepData);
    }

    /** Starts every replica that is not running again, all at once, and waits until each is ready. */
    void restartAll(boolean keepData) throws IOException, InterruptedException {
        List<Integer> started = new ArrayList<>();
        for (int i = 0; i < SIZE; i++) {
            if (!replicas[i].alive()) {
                if (!keepData) {
                    deleteTree(dataDirectory(i));
                }
                launch(i);
                started.add(i);
            }
        }
        for (int i : started) {
            awaitReady(i);
        }
    }

    Path dataDirectory(int i) {
        return settings.runDir().resolve("data").resolve(name(i));
    }

    boolean alive(int i) {
        return replicas[i].alive();
    }

    long pid(int i) {
        return replicas[i].pid();
    }

    /** Replica {@code i}'s HTTP port (its services and its status page, {@code GET /bftws/status}). */
    int port(int i) {
        return ports[i];
    }

    /**
     * Replica {@code i}'s live heap: its heap in use (status page) right after a full collection ({@code jcmd PID
     * GC.run} on the JVM this group started), so garbage not yet collected does not count; -1 when the page does not
     * answer.
     */
    long liveHeapBytes(int i) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(pid(i)), "GC.run").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            p.waitFor(60, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no jcmd: the reading below includes garbage
        }
        return ReplicaStatus.read(port(i), Duration.ofSeconds(10)).map(ReplicaStatus::heapUsedBytes).orElse(-1L);
    }

    /** The answer of replica {@code i} to {@code command}, without {@code COMMAND NAME}; fails when none comes. */
    String ask(int i, String command) throws InterruptedException {
        Optional<String> answer = replicas[i].ask(command, ANSWER_TIMEOUT);
        return answer.orElseThrow(() -> new IllegalStateException(name(i) + " did not answer '" + command + "' ("
                + (replicas[i].alive() ? "running" : "not running") + "); its last lines:\n  | "
                + String.join("\n  | ", replicas[i].tail())));
    }

    /** The {@code key=value} fields of an answer, in order (words without '=' are skipped). */
    static Map<String, String> fields(String answer) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String word : answer.trim().split(" ")) {
            int eq = word.indexOf('=');
            if (eq > 0) {
                m.put(word.substring(0, eq), word.substring(eq + 1));
            }
        }
        return m;
    }

    /** Replica {@code i}'s echo state: appends executed, their running digest and the values in order. */
    EchoStateProbe.Reading state(int i) throws InterruptedException {
        String state = ask(i, "state");
        if (state.equals("none")) {
            return new EchoStateProbe.Reading(0, "", List.of());
        }
        Map<String, String> f = fields(state);
        if (!f.containsKey("count")) {
            throw new IllegalStateException(name(i) + " gave no state: " + state);
        }
        String entries = ask(i, "entries").trim();
        List<String> values = entries.isEmpty() ? List.of() : Arrays.asList(entries.split(","));
        return new EchoStateProbe.Reading(Integer.parseInt(f.get("count")), f.get("digest"), List.copyOf(values));
    }

    /**
     * Every replica's echo state, once all report the same state twice in a row with at least {@code atLeast}
     * appends (the clients stopped: a restarted replica may still be catching up), polling every {@code poll}; the
     * last reading when that does not happen within {@code timeout}.
     */
    Map<String, EchoStateProbe.Reading> awaitSameState(int atLeast, Duration poll, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, EchoStateProbe.Reading> last = states();
        while (System.nanoTime() < deadline) {
            Thread.sleep(poll.toMillis());
            Map<String, EchoStateProbe.Reading> now = states();
            boolean done = now.equals(last) && now.values().stream().distinct().count() == 1
                    && now.values().iterator().next().count() >= atLeast;
            last = now;
            if (done) {
                break;
            }
        }
        return last;
    }

    /** Every replica's echo state, by name. */
    Map<String, EchoStateProbe.Reading> states() throws InterruptedException {
        Map<String, EchoStateProbe.Reading> m = new LinkedHashMap<>();
        for (int i = 0; i < SIZE; i++) {
            m.put(name(i), state(i));
        }
        return m;
    }

    /** Replica {@code i}'s counters and ordering position ({@code stats}) as fields. */
    Map<String, String> stats(int i) throws InterruptedException {
        return fields(ask(i, "stats"));
    }

    /** Replica {@code i}'s view, stable checkpoint, last executed and recovery timings ({@code measurements}). */
    Map<String, String> measurements(int i) throws InterruptedException {
        return fields(ask(i, "measurements"));
    }

    /** The highest view any running replica is in. */
    int view() throws InterruptedException {
        int view = 0;
        for (int i = 0; i < SIZE; i++) {
            if (alive(i)) {
                view = Math.max(view, Integer.parseInt(stats(i).getOrDefault("view", "0")));
            }
        }
        return view;
    }

    /** The primary of the highest view a running replica is in (node v mod 4 in view v). */
    int primary() throws InterruptedException {
        return view() % SIZE;
    }

    /** The replicas' processes, replica0 first. */
    List<ReplicaProcess> processes() {
        return List.of(replicas);
    }

    /** The last lines replica {@code i} printed. */
    List<String> tail(int i) {
        return replicas[i].tail();
    }

    /** Stops every running replica (end of input, SIGTERM, SIGKILL); prints how each ended to {@code out}. */
    void stopAll(PrintStream out) {
        List<ReplicaProcess> running = new ArrayList<>();
        for (ReplicaProcess r : replicas) {
            if (r != null) {
                running.add(r);
            }
        }
        Testbed.stopAll(running, out);
    }

    @Override
    public void close() {
        stopAll(new PrintStream(PrintStream.nullOutputStream()));
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
