package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import org.bftws.axis2.node.BftwsNode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.ordering.BftReplica;
import org.bftws.wire.WireLimits;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A replica that never received a client's request (a proxy in front of replica3 drops every copy of it) gets it
 * from its peers and executes it, in step with them, in every security profile: the backup fetches the body the
 * pre-prepare names (in {@code mac}, the relayed copy is authenticated with its own entry of the client's
 * authenticator; in {@code wssec}, with the client's signature; in {@code none}, it is a body the slot awaits), and
 * executes the batch once committed. Not by state transfer: the group's checkpoint interval is far away. Also for a
 * request just under the size limit a replica takes (WireLimits.DEFAULT_MAX_PAYLOAD_BYTES, the envelope included):
 * exactly the bytes one PBFT request carries, so a relayed copy always fits.
 */
class MissedRequestCatchUpTest {

    private static final int LIMIT = WireLimits.DEFAULT_MAX_PAYLOAD_BYTES;
    /** Room left for the SOAP envelope around the echoed text (WS-A, WS-RM, a MAC authenticator or a signature). */
    private static final int ENVELOPE_ROOM = 16 * 1024;
    private static final String MARKER = "zzzzzzzz";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "profile {0}")
    @ValueSource(strings = {"none", "mac", "wssec"})
    void aReplicaThatMissedAClientsRequestGetsItFromItsPeersAndExecutesIt(String profile) throws Exception {
        int size = missedRequestIsExecutedByReplica3(profile, "z".repeat(100));
        assertTrue(size < 16 * 1024, "a small request: " + size + " bytes");
    }

    @ParameterizedTest(name = "profile {0}")
    @ValueSource(strings = {"none", "mac", "wssec"})
    void aReplicaThatMissedARequestJustUnderTheSizeLimitGetsItFromItsPeersAndExecutesIt(String profile)
            throws Exception {
        int size = missedRequestIsExecutedByReplica3(profile, "z".repeat(LIMIT - ENVELOPE_ROOM));
        assertTrue(size > LIMIT - ENVELOPE_ROOM && size <= LIMIT, "just under the limit: " + size + " bytes");
    }

    /**
     * Calls the group with an echo of {@code text} that replica3 never receives, then with one it does; replica3 must
     * execute both. Returns the size of the request replica3 missed (its whole envelope).
     */
    private int missedRequestIsExecutedByReplica3(String profile, String text) throws Exception {
        int[] p = NodeServer.freePorts(4);
        AtomicInteger missedSize = new AtomicInteger();
        LossyProxy.Plan dropMarked = new LossyProxy.Plan() {
            @Override
            public LossyProxy.Fate fate(int index, String body) {
                if (body.contains(MARKER)) {
                    missedSize.accumulateAndGet(body.length(), Math::max); // ASCII: characters are bytes
                    return LossyProxy.Fate.DROP_REQUEST;
                }
                return LossyProxy.Fate.PASS;
            }
        };
        // Only replica3's client traffic passes the proxy; the PBFT channels connect the replicas directly.
        try (LossyProxy proxy = new LossyProxy(URI.create("http://127.0.0.1:" + p[3]), dropMarked);
             EchoReplicas group = EchoReplicas.withReplica3Behind(proxy, dir, profile, p)) {
            ConfigurationContext[] nodes = group.startAll(p);
            ServiceClient client = TestNodes.serviceClient(group.client(), EchoReplicas.GROUP);

            assertEquals(List.of(text), ReplicatedEchoVotingTest.items(TestNodes.call(client, TestNodes.echo(text))));
            // the call returns on f+1 replies: on a loaded machine the copy for replica3 may reach the proxy after that
            long sent = System.nanoTime() + 10_000_000_000L;
            while (proxy.droppedRequests.get() < 1 && System.nanoTime() < sent) {
                Thread.sleep(20);
            }
            assertTrue(proxy.droppedRequests.get() >= 1, "the proxy kept the request from replica3");
            BftReplica replica3 = BftwsNode.of(nodes[3]).replica(); // started with the node's first request
            // CreateSequence is answered by each replica itself, not ordered: the echo is the first ordered request
            awaitExecuted(replica3, 1);
            assertEquals(1, replica3.invoker().executedRequests(), "replica3 executed the request it never received");

            assertEquals(List.of("next"), ReplicatedEchoVotingTest.items(TestNodes.call(client,
                    TestNodes.echo("next"))));
            awaitExecuted(replica3, 2);
            assertEquals(2, replica3.invoker().executedRequests(), "replica3 is in step with its peers");
            for (int i = 0; i < 3; i++) { // the client's quorum may not have waited for all of them
                BftReplica peer = BftwsNode.of(nodes[i]).replica();
                awaitExecuted(peer, 2);
                assertEquals(2, peer.invoker().executedRequests(), "replica" + i);
            }
            assertFalse(replica3.counters().containsKey("state transfers"), "caught up without a state transfer: "
                    + replica3.counters());
            System.out.println(profile + ": replica3 missed a request of " + missedSize.get() + " bytes; its counters: "
                    + replica3.counters());
            return missedSize.get();
        }
    }

    private static void awaitExecuted(BftReplica replica, long count) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (replica.invoker().executedRequests() < count && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }
}
