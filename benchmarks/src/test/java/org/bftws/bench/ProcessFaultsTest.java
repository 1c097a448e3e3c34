package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.bftws.config.SecurityProfile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 5's fault tests with real processes: four replica JVMs of the echo sample (Configuration I, f=1, mac
 * profile, a data directory) started as {@code ./bftws replica} starts them, three client threads appending
 * without pause, and faults made with signals: SIGKILL of a backup, of the primary, of all four. After each step
 * every surviving replica's order-dependent echo log is read through its standard input ({@code state},
 * {@code entries}) and checked against every call the clients made so far: each accepted append executed exactly
 * once, at the position its reply reported, nothing else but what clients sent, all replicas alike.
 *
 * <p>One group serves the steps in order (starting four JVMs costs seconds on this machine); each step leaves all
 * four replicas running and in agreement, which the next one relies on.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ProcessFaultsTest {

    /** Small checkpoint interval, so that checkpoints, garbage collection and state transfer happen in seconds. */
    static final String PROTOCOL = "<protocol checkpointInterval=\"8\" watermarkWindow=\"32\" batchMaxSize=\"16\""
            + " batchMaxDelay=\"1ms\" maxBatchesInFlight=\"2\" viewChangeTimeout=\"1s\" retransmissionInterval=\"500ms\""
            + " maxRetransmissions=\"8\" clientTimeout=\"3s\"/>";
    /** The replicas log the PBFT layer's debug lines (drops, lost bundles): the logs stay in target/ to read. */
    private static final List<String> REPLICA_JVM_OPTIONS =
            List.of("-Dorg.slf4j.simpleLogger.log.org.bftws.axis2.ordering=debug");
    private static final int THREADS = 3;
    private static final long CALL_TIMEOUT_MILLIS = 60_000;
    private static final long PHASE_TIMEOUT_MILLIS = 120_000;
    private static final long SETTLE_MILLIS = 60_000;

    /** Under target/, not a temporary directory: the replicas' logs stay there for a look after a failure. */
    private final Path dir = Path.of("target", "process-faults",
            java.time.LocalDateTime.now().format(java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")))
            .toAbsolutePath();
    private long t0 = System.nanoTime();

    private ReplicaGroup group;
    private AppendClients clients;

    @BeforeAll
    void startTheGroup() throws Exception {
        note("starting the group in " + dir);
        group = ReplicaGroup.start(new ReplicaGroup.Settings(dir.resolve("run"), Path.of("target", "testbed-keys"),
                SecurityProfile.MAC, PROTOCOL, true, REPLICA_JVM_OPTIONS, "256m"));
        clients = AppendClients.open(group.replicasXml(), TestbedDeployment.CLIENT, dir.resolve("client"),
                TestbedDeployment.GROUP_ENDPOINT, CALL_TIMEOUT_MILLIS);
        note("group ready");
    }

    @AfterAll
    void stopTheGroup() throws Exception {
        if (clients != null) {
            clients.close();
        }
        if (group != null) {
            group.close();
        }
    }

    @Test
    @Order(1)
    void aBackupKilledUnderLoadAndReplacedWithAnEmptyDataDirectoryCatchesUpByStateTransferAndThenMatches()
            throws Exception {
        int backup = (group.primary() + 3) % ReplicaGroup.SIZE;
        clients.start("a", THREADS);
        awaitMoreCalls(15);
        group.crash(backup);
        note("killed backup " + ReplicaGroup.name(backup));
        awaitMoreCalls(25); // the others go on without it, past several checkpoints
        group.restart(backup, false);
        note("restarted " + ReplicaGroup.name(backup) + " with an empty data directory");
        awaitMoreCalls(15);
        clients.stop();
        assertTrue(clients.failed().isEmpty(), "failed calls: " + clients.failed());
        EchoStateProbe.Reading settled = settle(all());
        assertTrue(Long.parseLong(group.stats(backup).getOrDefault("state-transfers", "0")) >= 1,
                ReplicaGroup.name(backup) + " fetched the state: " + group.stats(backup));
        assertTrue(settled.count() >= clients.accepted().size());
    }

    @Test
    @Order(2)
    void thePrimaryKilledUnderLoadFromSeveralClientsLeavesEveryAcceptedRequestExecutedExactlyOnceOnTheOthers()
            throws Exception {
        int primary = group.primary();
        int viewBefore = group.view();
        int callsBefore = clients.calls().size();
        clients.start("b", THREADS);
        awaitMoreCalls(15);
        group.crash(primary);
        note("killed the primary " + ReplicaGroup.name(primary));
        int atKill = clients.calls().size();
        awaitMoreCalls(30);
        clients.stop();
        assertTrue(clients.failed().isEmpty(), "failed calls: " + clients.failed());
        List<AppendClients.Call> after = clients.calls().subList(atKill, clients.calls().size());
        assertTrue(after.stream().anyMatch(c -> c.view() > viewBefore), "replies after the kill came from a view "
                + "after " + viewBefore + ": " + after);
        assertTrue(clients.calls().size() - callsBefore >= 45);
        settle(survivorsOf(primary));
        for (int i : survivorsOf(primary)) {
            assertTrue(Integer.parseInt(group.stats(i).get("view")) > viewBefore, ReplicaGroup.name(i) + " changed view");
        }
        restartedPrimary = primary;
    }

    private int restartedPrimary = -1;

    @Test
    @Order(3)
    void theKilledPrimaryRestartedWithItsDataDirectoryRecoversAndThenMatchesTheOthers() throws Exception {
        int replica = restartedPrimary >= 0 ? restartedPrimary : firstNotRunning();
        group.restart(replica, true);
        note("restarted " + ReplicaGroup.name(replica) + " with its data directory");
        clients.start("c", THREADS);
        awaitMoreCalls(20);
        clients.stop();
        assertTrue(clients.failed().isEmpty(), "failed calls: " + clients.failed());
        settle(all());
        String log = Files.readString(dir.resolve("run").resolve(ReplicaGroup.name(replica) + ".restart1.log"));
        assertTrue(log.contains("recovering from its data directory"), "it recovered from its journal:\n" + log);
    }

    @Test
    @Order(4)
    void allFourKilledAndStartedAgainWithTheirDataDirectoriesLoseNothingAccepted() throws Exception {
        EchoStateProbe.Reading before = settle(all());
        for (int i = 0; i < ReplicaGroup.SIZE; i++) {
            group.crash(i);
        }
        note("killed all four");
        group.restartAll(true);
        note("all four restarted");
        EchoStateProbe.Reading recovered = settle(all(), before.count());
        assertEquals(before.entries(), recovered.entries(), "every replica recovered every executed append");
        clients.start("d", THREADS);
        awaitMoreCalls(15);
        clients.stop();
        assertTrue(clients.failed().isEmpty(), "failed calls: " + clients.failed());
        EchoStateProbe.Reading after = settle(all());
        assertEquals(before.entries(), after.entries().subList(0, before.count()), "new appends come after the old");
    }

    /** A line with the time since the group started, for the test's output (where a slow step shows). */
    private void note(String what) {
        System.out.printf(java.util.Locale.ROOT, "[process faults %6.1f s] %s (%d calls, %d failed)%n",
                (System.nanoTime() - t0) / 1e9, what, clients == null ? 0 : clients.calls().size(),
                clients == null ? 0 : clients.failed().size());
    }

    private void awaitMoreCalls(int n) throws InterruptedException {
        int target = clients.calls().size() + n;
        assertTrue(clients.awaitCalls(target, PHASE_TIMEOUT_MILLIS), "only " + clients.calls().size() + " of "
                + target + " calls finished within " + PHASE_TIMEOUT_MILLIS / 1000 + " s; "
                + describe(all()));
        note(n + " more calls");
    }

    /**
     * Waits (clients stopped) until the replicas report the same state twice in a row, then checks exactly-once on
     * each and that they are identical; returns their common state.
     */
    private EchoStateProbe.Reading settle(List<Integer> replicas) throws InterruptedException {
        return settle(replicas, clients.accepted().size());
    }

    /** As {@link #settle(List)}, once every replica executed at least {@code atLeast} appends. */
    private EchoStateProbe.Reading settle(List<Integer> replicas, int atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE_MILLIS * 1_000_000;
        Map<String, EchoStateProbe.Reading> last = read(replicas);
        while (System.nanoTime() < deadline) {
            Thread.sleep(500);
            Map<String, EchoStateProbe.Reading> now = read(replicas);
            boolean done = now.equals(last) && now.values().stream().distinct().count() == 1
                    && now.values().iterator().next().count() >= atLeast;
            last = now;
            if (done) {
                break;
            }
        }
        note("settled " + last.keySet() + " at " + last.values().stream().map(r -> r.count() + "").toList());
        for (Map.Entry<String, EchoStateProbe.Reading> e : last.entrySet()) {
            ExecutionCheck.executedExactlyOnce(e.getKey(), e.getValue().entries(), clients.calls());
        }
        return ExecutionCheck.identical(last);
    }

    private Map<String, EchoStateProbe.Reading> read(List<Integer> replicas) throws InterruptedException {
        Map<String, EchoStateProbe.Reading> m = new LinkedHashMap<>();
        for (int i : replicas) {
            m.put(ReplicaGroup.name(i), group.state(i));
        }
        return m;
    }

    private String describe(List<Integer> replicas) {
        StringBuilder b = new StringBuilder();
        for (int i : replicas) {
            try {
                b.append('\n').append(ReplicaGroup.name(i)).append(": ")
                        .append(group.alive(i) ? group.ask(i, "stats") : "not running");
            } catch (InterruptedException | RuntimeException e) {
                b.append('\n').append(ReplicaGroup.name(i)).append(": ").append(e.getMessage());
            }
        }
        return b.toString();
    }

    private List<Integer> all() {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < ReplicaGroup.SIZE; i++) {
            if (group.alive(i)) {
                all.add(i);
            }
        }
        return all;
    }

    private List<Integer> survivorsOf(int dead) {
        return all().stream().filter(i -> i != dead).toList();
    }

    private int firstNotRunning() {
        for (int i = 0; i < ReplicaGroup.SIZE; i++) {
            if (!group.alive(i)) {
                return i;
            }
        }
        throw new IllegalStateException("every replica is running");
    }
}
