package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.client.ReplyVoting;
import org.bftws.voting.VotingCounters;
import org.bftws.core.ReplyPolicy;
import org.bftws.security.RefusalReason;
import org.bftws.axis2.security.SecurityRuntime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read-only requests (docs/protocol.md, "Read-only requests"): {@code get_state} and {@code echo} of the echo sample
 * are declared read-only in replicas.xml; four replicas with profile {@code mac}, of which replica2 forges every
 * reply it sends (reads too). The last test stops replica3. A call returns on a quorum, so whatever is asserted about
 * a replica that need not have answered is waited for, bounded.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReadOnlyRequestsTest {

    static final String READ_ONLY = "<operation name=\"get_state\" readOnly=\"true\" readTimeout=\"2s\"/>\n"
            + "<operation name=\"echo\" readOnly=\"true\" readTimeout=\"2s\"/>";

    private Path dir;
    private BftTestGroup group;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        this.dir = dir;
        group = BftTestGroup.start(dir, "mac", BftTestGroup.protocol(16, "2s") + "\n" + READ_ONLY, 2);
    }

    @AfterAll
    void stop() throws Exception {
        if (group != null) {
            group.close();
        }
    }

    @Test
    @Order(1)
    void aReadIsAcceptedOnTwoFPlusOneIdenticalRepliesWithoutTakingAPlaceInTheOrder() throws Exception {
        ServiceClient client = group.client();
        String value = "read-" + System.nanoTime();
        int count = Integer.parseInt(BftTestGroup.child(BftTestGroup.call(client, BftTestGroup.append(value)), "count"));
        long[] ordered = new long[4];
        for (int i = 0; i < 4; i++) {
            int r = i;
            awaitAtLeast(() -> group.node(r).replica().invoker().executedRequests(), 1, "replica" + i + " executes");
            ordered[i] = group.node(i).replica().invoker().executedRequests();
        }
        long[] readsBefore = reads();
        OMElement state = BftTestGroup.call(client, org.bftws.axis2.TestNodesAccess.getState());
        assertTrue(org.bftws.axis2.TestNodesAccess.entries(state).contains(value), state.toString());
        VotingCounters counters = counters(client);
        assertEquals(1, counters.readsAccepted.get(), counters.toString());
        assertEquals(0, counters.readsFallenBack.get(), counters.toString());
        for (int i = 0; i < 4; i++) {
            int r = i;
            awaitAtLeast(() -> reads()[r], readsBefore[i] + 1, "replica" + i + " executes the read");
            assertEquals(ordered[i], group.node(i).replica().invoker().executedRequests(),
                    "the read was not ordered at replica" + i);
        }
        // the read took no message number: the next write of the same sequence goes on at once
        OMElement next = BftTestGroup.call(client, BftTestGroup.append(value + "-2"));
        assertEquals(Integer.toString(count + 1), BftTestGroup.child(next, "count"), next.toString());
        assertEquals(1, counters.readsAccepted.get());
    }

    @Test
    @Order(2)
    void aReadOnlyMarkerOnAnOperationNotDeclaredReadOnlyIsRefusedAndTheCallGoesOnOrdered() throws Exception {
        // this client believes append is read-only; the replicas' replicas.xml says otherwise
        Path clientXml = dir.resolve("client-replicas.xml");
        Files.writeString(clientXml, Files.readString(group.replicasXml()).replace(READ_ONLY,
                READ_ONLY + "\n<operation name=\"append\" readOnly=\"true\" readTimeout=\"2s\"/>"));
        ServiceClient client = group.client(clientXml, null);
        long[] refusedBefore = readsRefused();
        String value = "not-a-read-" + System.nanoTime();
        OMElement reply = BftTestGroup.call(client, BftTestGroup.append(value));
        int count = Integer.parseInt(BftTestGroup.child(reply, "count"));
        VotingCounters counters = counters(client);
        assertEquals(1, counters.readsFallenBack.get(), counters.toString());
        assertEquals(0, counters.readsAccepted.get(), counters.toString());
        for (int i = 0; i < 4; i++) {
            int r = i;
            awaitAtLeast(() -> readsRefused()[r], refusedBefore[i] + 1, "replica" + i + " refuses the marker");
        }
        // executed once, in order: the state holds the value once
        OMElement state = BftTestGroup.call(group.client(), org.bftws.axis2.TestNodesAccess.getState());
        List<String> entries = org.bftws.axis2.TestNodesAccess.entries(state);
        assertEquals(1, entries.stream().filter(value::equals).count(), entries.toString());
        assertTrue(entries.size() >= count, entries + " / " + count);
    }

    @Test
    @Order(3)
    void aReadOnlyMarkerAddedOnTheWayFailsTheRequestAuthenticatorAndNothingExecutes() throws Exception {
        ServiceClient client = group.client(group.replicasXml(), MarkAsReadOnlyHandler.class);
        client.getOptions().setProperty(ReplyVoting.REPLY_POLICY, ReplyPolicy.WEAK_QUORUM);
        long[] mismatches = macMismatches();
        long[] readsBefore = reads();
        long[] refusedBefore = readsRefused();
        String value = "tampered-" + System.nanoTime();
        assertThrows(AxisFault.class, () -> BftTestGroup.call(client, BftTestGroup.append(value)));
        for (int i = 0; i < 4; i++) {
            int r = i;
            awaitAtLeast(() -> macMismatches()[r], mismatches[i] + 1, "replica" + i + " refuses the MAC");
            assertEquals(readsBefore[i], reads()[i], "replica" + i + " executed no read");
            assertEquals(refusedBefore[i], readsRefused()[i], "the security handler refused it before");
        }
        OMElement state = BftTestGroup.call(group.client(), org.bftws.axis2.TestNodesAccess.getState());
        assertTrue(!org.bftws.axis2.TestNodesAccess.entries(state).contains(value), state.toString());
    }

    @Test
    @Order(4)
    void aReadWithALyingReplicaAndAStoppedOneFallsBackToTheOrderedRequestAndReturnsTheRightState() throws Exception {
        ServiceClient client = group.client();
        // two of four faulty is beyond f=1 for 2f+1 identical answers: this client's ordered calls take f+1
        client.getOptions().setProperty(ReplyVoting.REPLY_POLICY, ReplyPolicy.WEAK_QUORUM);
        String value = "before-the-stop-" + System.nanoTime();
        BftTestGroup.call(client, BftTestGroup.append(value));
        group.stop(3);
        OMElement appended = BftTestGroup.call(client, BftTestGroup.append(value + "-2"));
        int count = Integer.parseInt(BftTestGroup.child(appended, "count"));
        // replica2 forges every reply, reads too; replica3 is gone: two identical correct answers only
        OMElement state = BftTestGroup.call(client, org.bftws.axis2.TestNodesAccess.getState());
        List<String> entries = org.bftws.axis2.TestNodesAccess.entries(state);
        assertEquals(count, entries.size(), entries.toString());
        assertEquals(value + "-2", entries.get(entries.size() - 1), entries.toString());
        VotingCounters counters = counters(client);
        assertEquals(1, counters.readsFallenBack.get(), counters.toString());
        assertEquals(0, counters.readsAccepted.get(), counters.toString());
        // the ordered read took the sequence's next number, and the sequence goes on
        OMElement after = BftTestGroup.call(client, BftTestGroup.append(value + "-3"));
        assertEquals(Integer.toString(count + 1), BftTestGroup.child(after, "count"));
    }

    private long[] reads() {
        return counter("read-only requests executed");
    }

    private long[] readsRefused() {
        return counter("read-only requests refused");
    }

    private long[] counter(String name) {
        long[] out = new long[4];
        for (int i = 0; i < 4; i++) {
            out[i] = group.node(i).replica().counters().getOrDefault(name, 0L);
        }
        return out;
    }

    private long[] macMismatches() {
        long[] out = new long[4];
        for (int i = 0; i < 4; i++) {
            out[i] = SecurityRuntime.of(group.context(i)).refusals().count(RefusalReason.MAC_MISMATCH);
        }
        return out;
    }

    static VotingCounters counters(ServiceClient client) {
        return BftwsNode.of(client.getServiceContext().getConfigurationContext()).voting().counters();
    }

    static void awaitAtLeast(LongSupplier value, long expected, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (value.getAsLong() < expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(value.getAsLong() >= expected, what + ": " + value.getAsLong() + " < " + expected);
    }
}
