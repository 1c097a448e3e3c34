package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.bftws.bench.byzantine.ByzantineMode;
import org.bftws.config.SecurityProfile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 16's Byzantine replicas on the real stack: four replica JVMs of the echo sample (Configuration I, f=1, mac
 * profile) on loopback, one of them started with {@code --byzantine MODE} (replicas.xml allows it for that node
 * only), and a client appending one value after another. Whatever the lie, every append is answered correctly
 * (each executed exactly once at the position its reply reported), the correct replicas' echo logs are identical,
 * and the lie shows in the correct replicas' counters (or, for wrong replies, the client's Voter's): the check the
 * testbed ends a {@code --byzantine} run with ({@link ByzantineCheck}).
 */
class ByzantineReplicasTest {

    /** Checkpoints every 4 slots and a 1 s view change timeout: each lie shows within a few seconds. */
    private static final String PROTOCOL = "<protocol checkpointInterval=\"4\" watermarkWindow=\"16\" batchMaxSize=\"16\""
            + " batchMaxDelay=\"1ms\" viewChangeTimeout=\"1s\" retransmissionInterval=\"500ms\" maxRetransmissions=\"8\""
            + " clientTimeout=\"3s\"/>";
    private static final int APPENDS = 16;
    private static final long CALL_TIMEOUT_MILLIS = 30_000;
    /** Six groups of four JVMs start here: the client compiler alone starts them sooner, which is all they need. */
    private static final List<String> FAST_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    private static final long CALLS_TIMEOUT_MILLIS = 90_000;

    @ParameterizedTest(name = "{0}")
    @EnumSource(ByzantineMode.class)
    void withOneByzantineReplicaEveryAppendIsAnsweredCorrectlyTheCorrectReplicasAgreeAndTheyCountTheLie(
            ByzantineMode mode) throws Exception {
        Path dir = Path.of("target", "byzantine", mode.label() + "-" + System.currentTimeMillis()).toAbsolutePath();
        ReplicaGroup.Settings settings = new ReplicaGroup.Settings(dir.resolve("run"), Path.of("target",
                "testbed-keys"), SecurityProfile.MAC, PROTOCOL, false, FAST_START, "192m", mode);
        try (ReplicaGroup group = ReplicaGroup.start(settings);
             AppendClients clients = AppendClients.open(group.replicasXml(), TestbedDeployment.CLIENT,
                     dir.resolve("client"), TestbedDeployment.GROUP_ENDPOINT, CALL_TIMEOUT_MILLIS)) {
            clients.start(mode.label(), 1);
            boolean finished = clients.awaitCalls(APPENDS, CALLS_TIMEOUT_MILLIS);
            clients.stop();
            assertTrue(finished, "only " + clients.calls().size() + " of " + APPENDS + " appends finished");
            assertTrue(clients.failed().isEmpty(), "failed appends: " + clients.failed());

            ByzantineCheck check = ByzantineCheck.of(mode, group.processes(), clients.voting());
            assertTrue(check.states().startsWith("states: equal on 3 correct replicas"), check.states());
            assertTrue(check.lie().startsWith("lie: counted"), check.lie());

            int liar = mode.testbedNode();
            Map<String, EchoStateProbe.Reading> correct = new LinkedHashMap<>();
            for (int i = 0; i < ReplicaGroup.SIZE; i++) {
                if (i != liar) {
                    correct.put(ReplicaGroup.name(i), group.state(i));
                }
            }
            for (Map.Entry<String, EchoStateProbe.Reading> e : correct.entrySet()) {
                assertEquals(clients.calls().size(), e.getValue().count(), e.getKey() + " executed every append");
                ExecutionCheck.executedExactlyOnce(e.getKey(), e.getValue().entries(), clients.calls());
            }
            ExecutionCheck.identical(correct);
        }
    }
}
