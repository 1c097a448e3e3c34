package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Paper 3.4 at every replica, not only the one whose gate let a nested request in: a callee replica votes for a
 * caller group's nested request only when its own gate counted p+1 identical copies (here: the request reached it
 * through {@link Node#onRequest}, which the adapter does only after admission), or when the batch carries proof that
 * correct replicas checked it (a commit quorum, a new view's re-proposal).
 */
class NestedAdmissionSafetyTest {

    /** A caller group's virtual sequence: its requests need local admission. */
    private static final String NESTED = "nested-caller-group";
    private static final int TIMEOUT = 50;

    private static TestCluster cluster() {
        return new TestCluster(Membership.configurationI(1), TestCluster.options(1), NESTED::equals);
    }

    @Test
    void aNestedRequestOnlyThePrimarysGateAdmittedIsNeitherProposedNorPrepared() {
        TestCluster c = cluster();
        Request x = TestCluster.request(NESTED, 1);
        List<Prepare> prepares = new ArrayList<>();
        // Only the primary "admitted" x: a faulty primary taking the copy of one faulty caller replica.
        c.send(x, 0);
        c.tickAndDeliver(TIMEOUT / 2, f -> {
            if (f.message() instanceof Prepare p) {
                prepares.add(p);
            }
            return true;
        });
        assertTrue(c.committed.get(0).isEmpty(), "the primary proposes only what 2f others claimed too");
        // A faulty primary proposes it all the same, and relays its body: no correct backup vouches for it.
        c.inject(1, new PrePrepare(0, 1, new Batch(List.of(x.ref())), 0));
        c.inject(1, new ForwardedRequests(List.of(x), 0));
        c.tickAndDeliver(TIMEOUT / 2, f -> {
            if (f.message() instanceof Prepare p) {
                prepares.add(p);
            }
            return true;
        });
        assertNotNull(c.replica(1).requests.body(x.digest()), "node 1 holds the body the primary relayed");
        for (int i = 0; i < 4; i++) {
            assertTrue(c.executedIds(i).isEmpty(), "node " + i + " executed a request only one caller replica sent");
        }
        assertTrue(prepares.isEmpty(), "backups prepared " + prepares);
    }

    @Test
    void aBackupPreparesTheNestedRequestOnceItsOwnGateAdmitsIt() {
        TestCluster c = cluster();
        Request x = TestCluster.request(NESTED, 1);
        c.send(x, 0);
        c.tickAndDeliver(5);
        assertTrue(c.executedIds(1).isEmpty());
        // The correct caller replicas' copies reach the backups' gates, which admit the request.
        c.send(x, 1, 2, 3);
        c.deliverAll();
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(x.id()), c.executedIds(i), "node " + i);
        }
    }

    @Test
    void aBackupThatMissedTheCopiesPreparesOnceFPlusOneNodesVouchForTheRequest() {
        TestCluster c = cluster();
        Request x = TestCluster.request(NESTED, 1);
        List<Prepare> prepares = new ArrayList<>();
        c.send(x, 0, 1, 2); // node 3's gate never saw a copy; the others claim x to it
        c.tickAndDeliver(3, f -> {
            if (f.message() instanceof Prepare p) {
                prepares.add(p);
            }
            return true;
        });
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(x.id()), c.executedIds(i), "node " + i);
        }
        assertTrue(prepares.stream().anyMatch(p -> p.sender() == 3),
                "node 3 prepares on the claims of f+1 nodes, one of them correct: " + prepares);
    }

    @Test
    void aRelayedNestedRequestThatNoSlotAwaitsIsDroppedNotProposed() {
        TestCluster c = cluster();
        Request x = TestCluster.request(NESTED, 1);
        // A faulty backup relays a copy only one (faulty) caller replica signed to the correct primary, unasked.
        c.inject(0, new ForwardedRequests(List.of(x), 1));
        c.tickAndDeliver(5);
        assertTrue(c.droppedSomething(0, "relayed gated request"), String.valueOf(c.dropped.get(0)));
        assertTrue(c.inFlight.isEmpty());
        for (int i = 0; i < 4; i++) {
            assertTrue(c.committed.get(i).isEmpty(), "node " + i);
        }
    }

    @Test
    void aNewViewsReproposalOfANestedRequestIsPreparedByABackupThatNeverAdmittedIt() {
        TestCluster c = cluster();
        Request x = TestCluster.request(NESTED, 1);
        c.send(x, 0, 1, 2);
        // Nodes 1 and 2 prepare x; no commit gets through and node 3 hears nothing of view 0.
        c.deliverAll(f -> !(f.message() instanceof Commit) && f.to() != 3);
        assertTrue(c.replica(1).log.get(1).prepared);
        c.down[0] = true;
        // View 1 (primary 1) re-proposes x; node 2 and node 3 (whose gate never admitted x) must prepare it.
        c.tickAndDeliver(3 * TIMEOUT, f -> !(f.message() instanceof Commit m && m.view() == 0));
        for (int i = 1; i < 4; i++) {
            assertEquals(1, c.nodes[i].view(), "node " + i);
            assertEquals(List.of(x.id()), c.executedIds(i), "node " + i);
        }
    }

    @Test
    void anOrdinaryClientsRequestIsNotGated() {
        TestCluster c = cluster();
        Request r = TestCluster.request("plain-client", 1);
        c.send(r, 0);
        c.tickAndDeliver(5);
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(r.id()), c.executedIds(i), "node " + i + ": a backup fetches and prepares it");
        }
    }

    @Test
    void aBackupThatCannotVouchForTheProposedCopyAsksAgainUntilItsAdapterRecognisesIt() {
        TestCluster c = cluster();
        RequestId id = new RequestId(NESTED, 1);
        // Two caller replicas' copies of one request: same content, each with its own signature, so other bytes.
        Request x = new Request(id, "echo a, signed by caller replica 2".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Request y = new Request(id, "echo a, signed by caller replica 0".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        c.send(x, 0, 2, 3);
        c.send(y, 1); // node 1's gate completed its quorum with replica 0's copy
        List<FetchRequests> asked = new ArrayList<>();
        List<Prepare> prepared = new ArrayList<>();
        // Node 1 hears neither claims nor prepares for x (lost): nothing vouches for x there but the primary.
        c.tickAndDeliver(3 * c.options.fetchTimeout(), f -> {
            if (f.from() == 1 && f.message() instanceof FetchRequests fr && fr.digests().contains(x.digest())) {
                asked.add(fr);
            }
            if (f.from() == 1 && f.message() instanceof Prepare p) {
                prepared.add(p);
            }
            return !(f.to() == 1 && (f.message() instanceof Commit || f.message() instanceof Claim
                    || f.message() instanceof SignedClaim || f.message() instanceof Prepare));
        });
        assertNotNull(c.replica(1).requests.body(x.digest()), "node 1 holds the primary's copy, relayed");
        assertTrue(prepared.isEmpty(), "a relayed copy is not an admission: " + prepared);
        assertTrue(asked.size() >= 3, "node 1 asks again while it waits, so its adapter can recognise the copy: " + asked);
        // The adapter recognises the relayed copy's content as what its gate admitted and hands it over as admitted.
        c.send(x, 1);
        c.tickAndDeliver(3 * c.options.statusPeriod());
        assertEquals(List.of(x.id()), c.executedIds(1));
    }
}
