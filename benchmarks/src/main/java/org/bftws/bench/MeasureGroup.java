package org.bftws.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The group of one measurement: four replica JVMs ({@link ReplicaGroup}) with the protocol settings and echo state
 * size the experiment asks for, and an appending client in this JVM ({@link AppendClients}). Closing it stops both
 * and deletes the run directory unless the run is to be kept.
 */
final class MeasureGroup implements AutoCloseable {

    /** Replica heap: a 10 MB state is several times that as AXIOM trees while get_state and set_state run. */
    private static final String HEAP = "512m";
    private static final long CALL_TIMEOUT_MILLIS = 60_000;

    private final ReplicaGroup group;
    private final AppendClients clients;
    private final Path runDir;
    private final boolean keep;

    private MeasureGroup(ReplicaGroup group, AppendClients clients, Path runDir, boolean keep) {
        this.group = group;
        this.clients = clients;
        this.runDir = runDir;
        this.keep = keep;
    }

    /**
     * Starts a group for experiment {@code label}: {@code protocol} a {@code <protocol .../>} element,
     * {@code durable} with a data directory, {@code stateElements} padding elements in the echo state.
     */
    static MeasureGroup start(MeasureOptions options, String label, String protocol, boolean durable,
                              int stateElements) throws IOException, InterruptedException {
        Path runDir = options.home().resolve("measure").resolve(LocalDateTime.now().format(
                DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)) + "-" + label).toAbsolutePath();
        List<String> jvm = new ArrayList<>(List.of("-Decho.stateElements=" + stateElements));
        ReplicaGroup group = ReplicaGroup.start(new ReplicaGroup.Settings(runDir,
                options.home().resolve("testbed").resolve("keys"), options.security(), protocol, durable, jvm, HEAP));
        try {
            AppendClients clients = AppendClients.open(group.replicasXml(), TestbedDeployment.CLIENT,
                    runDir.resolve("client"), TestbedDeployment.GROUP_ENDPOINT, CALL_TIMEOUT_MILLIS);
            return new MeasureGroup(group, clients, runDir, options.keep());
        } catch (IOException | RuntimeException e) {
            group.close();
            throw e;
        }
    }

    /** A {@code <protocol>} element: checkpoint interval K, window 4K (2K from K=32 on), the view change timeout. */
    static String protocol(int checkpointInterval, String viewChangeTimeout) {
        return "<protocol checkpointInterval=\"" + checkpointInterval + "\" watermarkWindow=\""
                + checkpointInterval * (checkpointInterval < 32 ? 4 : 2) + "\" batchMaxSize=\"16\" batchMaxDelay=\"1ms\" maxBatchesInFlight=\"2\""
                + " viewChangeTimeout=\"" + viewChangeTimeout + "\" retransmissionInterval=\"500ms\""
                + " maxRetransmissions=\"8\" clientTimeout=\"3s\"/>";
    }

    ReplicaGroup group() {
        return group;
    }

    AppendClients clients() {
        return clients;
    }

    /** Runs one appending client until {@code n} more calls finished; false if they take over {@code seconds}. */
    boolean load(String prefix, int n, int seconds) throws InterruptedException {
        int target = clients.calls().size() + n;
        clients.start(prefix, 1);
        boolean done = clients.awaitCalls(target, seconds * 1000L);
        clients.stop();
        return done;
    }

    /** Replica {@code i}'s timings. */
    ReplicaTimings timings(int i) throws InterruptedException {
        return ReplicaTimings.of(group.measurements(i));
    }

    Path runDir() {
        return runDir;
    }

    @Override
    public void close() throws InterruptedException {
        try {
            clients.close();
        } finally {
            group.stopAll(new PrintStream(PrintStream.nullOutputStream()));
            if (!keep) {
                Testbed.deleteQuietly(runDir);
            }
        }
    }
}
