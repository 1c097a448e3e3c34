package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Requests authenticated with MAC authenticators (the {@code mac} profile, docs/protocol.md "Requests authenticated
 * with MACs"): a node can check only its own entry, so every client is gated, nodes claim what they authenticated,
 * and a faulty client whose authenticator verifies at some nodes only can neither make correct nodes diverge nor force
 * a view change, while a faulty primary can neither order a request no client sent nor ignore one for good.
 */
class MacAuthenticatedRequestsTest {

    private static final int TIMEOUT = 50;

    /** Configuration I, f = 1, every client's requests authenticated with MACs. */
    private static TestCluster cluster() {
        return new TestCluster(Membership.configurationI(1), TestCluster.options(1), client -> true);
    }

    @Test
    void thePrimaryProposesAGatedRequestOnlyOnceTwoFOtherNodesClaimedIt() {
        TestCluster c = cluster();
        Request r = TestCluster.request("client", 1);
        c.send(r, 0, 1); // the primary and one backup hold it; that backup's claim is one of the 2f needed
        c.deliverAll();
        assertTrue(c.committed.get(0).isEmpty());
        assertEquals(1, c.replica(0).claims.othersClaiming(r.ref()));
        c.send(r, 2);
        c.deliverAll();
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(r.id()), c.executedIds(i), "node " + i);
        }
    }

    @Test
    void aRequestWhoseAuthenticatorVerifiesOnlyAtThePrimaryIsNeverOrderedAndMakesNobodySuspectThePrimary() {
        TestCluster c = cluster();
        Request bad = TestCluster.request("faulty-client", 1);
        c.send(bad, 0); // the other entries do not verify: their adapters refused it
        c.tickAndDeliver(4 * TIMEOUT);
        assertTrue(c.viewChangesStarted.isEmpty(), "a faulty client forced a view change");
        for (int i = 0; i < 4; i++) {
            assertTrue(c.executedIds(i).isEmpty(), "node " + i);
        }
        Request good = TestCluster.request("correct-client", 1);
        c.send(good);
        c.tickAndDeliver(3);
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(good.id()), c.executedIds(i), "node " + i + ": other clients are served");
        }
    }

    @Test
    void aRequestAuthenticatedByTheBackupsButNotThePrimaryForcesNoViewChange() {
        TestCluster c = cluster();
        Request r = TestCluster.request("faulty-client", 1);
        c.send(r, 1, 2, 3); // the primary's entry does not verify
        c.tickAndDeliver(4 * TIMEOUT);
        assertTrue(c.viewChangesStarted.isEmpty(), "a faulty client forced a view change");
        // The backups' signed claims certified it: the primary ordered it on that proof, fetching its body.
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(r.id()), c.executedIds(i), "node " + i);
        }
    }

    @Test
    void aRequestValidAtThePrimaryAndFBackupsIsOrderedOnSignedClaimsWithoutAViewChange() {
        TestCluster c = cluster();
        Request r = TestCluster.request("faulty-client", 1);
        c.send(r, 0, 1); // too few claims for the fast path: f+1 signed claims certify it after a wait
        c.tickAndDeliver(4 * TIMEOUT);
        assertTrue(c.viewChangesStarted.isEmpty(), "a faulty client forced a view change");
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(r.id()), c.executedIds(i), "node " + i + " executes it: a correct node authenticated it");
        }
    }

    @Test
    void aBackupPreparesARequestItCouldNotAuthenticateOnceFPlusOneNodesVouchForIt() {
        TestCluster c = cluster();
        Request r = TestCluster.request("faulty-client", 1);
        List<Prepare> prepares = new ArrayList<>();
        c.send(r, 0, 1, 2); // node 3's entry does not verify
        c.tickAndDeliver(5, f -> {
            if (f.message() instanceof Prepare p) {
                prepares.add(p);
            }
            return true;
        });
        assertTrue(prepares.stream().anyMatch(p -> p.sender() == 3), "node 3 prepares on f+1 vouchers: " + prepares);
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(r.id()), c.executedIds(i), "node " + i);
        }
        assertTrue(c.viewChangesStarted.isEmpty());
    }

    @Test
    void aBackupThatNeverReceivedARequestFetchesItAuthenticatesTheRelayedCopyWithItsOwnEntryAndExecutesIt() {
        TestCluster c = cluster();
        Request r = TestCluster.request("client", 1);
        List<Message> fromNode3 = new ArrayList<>();
        c.send(r, 0, 1, 2); // the client's copy to node 3 is lost
        c.tickAndDeliver(5, f -> {
            if (f.from() == 3) {
                fromNode3.add(f.message());
            }
            if (f.to() == 3 && f.message() instanceof ForwardedRequests fw) {
                // as the adapter hands over a relayed copy whose entry of the authenticator verifies here
                fw.requests().forEach(body -> c.send(body, 3));
                return false;
            }
            return true;
        });
        assertTrue(fromNode3.stream().anyMatch(m -> m instanceof FetchRequests), "node 3 asked for the body");
        assertTrue(fromNode3.stream().anyMatch(m -> m instanceof Prepare), "node 3 prepared it: " + fromNode3);
        assertTrue(fromNode3.stream().anyMatch(m -> m instanceof Commit), "node 3 committed it: " + fromNode3);
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(r.id()), c.executedIds(i), "node " + i);
        }
        assertTrue(c.viewChangesStarted.isEmpty());
    }

    @Test
    void aFaultyPrimaryCannotGetARequestNoClientSentOrdered() {
        TestCluster c = cluster();
        // Node 0, the primary, is faulty: it proposes a request it made up, relays its body and claims it itself.
        Request forged = new Request(new RequestId("victim", 1), "transfer everything".getBytes(StandardCharsets.UTF_8));
        c.down[0] = true;
        List<Prepare> prepares = new ArrayList<>();
        for (int i = 1; i < 4; i++) {
            c.inject(i, new Claim(List.of(forged.ref()), 0));
            c.inject(i, new SignedClaim(List.of(forged.ref()), 0));
            c.inject(i, new PrePrepare(0, 1, new Batch(List.of(forged.ref())), 0));
            c.inject(i, new ForwardedRequests(List.of(forged), 0));
        }
        c.tickAndDeliver(TIMEOUT / 2, f -> {
            if (f.message() instanceof Prepare p) {
                prepares.add(p);
            }
            return true;
        });
        assertTrue(prepares.isEmpty(), "correct backups vouched for a request no client sent: " + prepares);
        for (int i = 1; i < 4; i++) {
            assertTrue(c.executedIds(i).isEmpty(), "node " + i);
        }
    }

    @Test
    void aPrimaryThatIgnoresACertifiedRequestIsReplacedAndTheRequestIsOrdered() {
        TestCluster c = cluster();
        Request r = TestCluster.request("client", 1);
        c.send(r);
        // The primary is faulty: it proposes nothing (its pre-prepares never arrive).
        c.tickAndDeliver(8 * TIMEOUT, f -> !(f.from() == 0 && f.message() instanceof PrePrepare));
        assertFalse(c.viewChangesStarted.isEmpty(), "the backups suspected the primary that ignored the request");
        for (int i = 1; i < 4; i++) {
            assertEquals(1, c.nodes[i].view(), "node " + i);
            assertEquals(List.of(r.id()), c.executedIds(i), "node " + i);
        }
    }

    @Test
    void claimsOfOrderedRequestsAreForgotten() {
        TestCluster c = cluster();
        for (int n = 1; n <= 5; n++) {
            c.send(TestCluster.request("client", n));
            c.tickAndDeliver(3);
        }
        for (int i = 0; i < 4; i++) {
            assertEquals(5, c.executedIds(i).size(), "node " + i);
            assertEquals(0, c.replica(i).claims.size(), "node " + i + " keeps claims of ordered requests");
        }
    }

    @Test
    void aClaimantsFullBudgetMakesRoomWithItsOldestUncorroboratedClaimAndNeverRefusesASecondClaimant() {
        RequestClaims claims = new RequestClaims(Membership.configurationI(1), 0);
        int max = RequestClaims.MAX_PER_CLAIMANT;
        for (int k = 0; k < max + 10; k++) {
            assertTrue(claims.claimed(TestCluster.request("made-up-" + k, 1).ref(), 3), "claim " + k);
        }
        assertEquals(max, claims.size(), "the budget bounds the entries");
        assertNull(claims.get(TestCluster.request("made-up-0", 1).ref()), "the oldest made room");
        assertNotNull(claims.get(TestCluster.request("made-up-" + (max + 9), 1).ref()));
        // Node 2 claims everything node 3 does: now every entry of node 3 is corroborated and stays.
        for (int k = 10; k < max + 10; k++) {
            assertTrue(claims.claimed(TestCluster.request("made-up-" + k, 1).ref(), 2));
        }
        assertFalse(claims.claimed(TestCluster.request("alone", 1).ref(), 3),
                "a claim nobody backs is refused once the budget holds only corroborated entries");
        Request shared = TestCluster.request("shared", 1);
        assertTrue(claims.authenticatedHere(shared.ref()));
        assertTrue(claims.claimed(shared.ref(), 3), "a claim that adds a second claimant is never refused");
        claims.collectGarbage(client -> 1); // every request above was ordered
        assertEquals(0, claims.size());
        assertTrue(claims.claimed(TestCluster.request("later", 1).ref(), 3), "the budget is freed by garbage collection");
    }

    @Test
    void honestClaimsAreNotRefusedWhenAClientFloodsOneReplicasBudget() {
        TestCluster c = cluster();
        // A faulty client's requests verify at node 1 only; node 1 claims them all at the primary, up to its budget.
        List<RequestRef> flood = new ArrayList<>();
        for (int k = 0; k < RequestClaims.MAX_PER_CLAIMANT; k++) {
            flood.add(TestCluster.request("flooder-" + k, 1).ref());
            if (flood.size() == 2) { // a claim names up to 2 x batchMaxSize requests
                c.inject(0, new Claim(List.copyOf(flood), 1));
                flood.clear();
            }
        }
        assertEquals(RequestClaims.MAX_PER_CLAIMANT, c.replica(0).claims.size());
        // A correct client's request reaches nodes 1 and 2 only (its other copies are late): the primary must take
        // node 1's claim and signed claim, or the backups certify it, forward the proof and suspect a correct primary.
        Request r = TestCluster.request("client", 1);
        c.send(r, 1, 2);
        c.tickAndDeliver(4 * TIMEOUT);
        assertTrue(c.viewChangesStarted.isEmpty(), "a client flooding one node's budget forced a view change");
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(r.id()), c.executedIds(i), "node " + i);
        }
    }

    @Test
    void claimsForARequestNobodyCorroboratesStopAfterTheRetries() {
        TestCluster c = cluster();
        Request bad = TestCluster.request("faulty-client", 1);
        List<Claim> claims = new ArrayList<>();
        List<SignedClaim> signed = new ArrayList<>();
        long[] lastTick = {-1};
        c.send(bad, 0); // the other entries do not verify
        c.tickAndDeliver(10 * TIMEOUT, f -> {
            if (f.from() == 0 && f.to() == 1 && f.message() instanceof Claim cl && cl.refs().contains(bad.ref())) {
                claims.add(cl);
                lastTick[0] = c.tick;
            } else if (f.from() == 0 && f.to() == 1 && f.message() instanceof SignedClaim sc
                    && sc.refs().contains(bad.ref())) {
                signed.add(sc);
                lastTick[0] = c.tick;
            }
            return true;
        });
        assertEquals(1 + ClaimProtocol.CLAIM_RETRIES, claims.size(), "claimed, then again a bounded number of times: "
                + claims);
        assertFalse(signed.isEmpty(), "the slow path signed a claim");
        assertTrue(signed.stream().allMatch(sc -> sc == signed.get(0)), "signed once, sent again as the same claim");
        assertTrue(lastTick[0] <= ClaimProtocol.abandonAfter(c.options), "claims after tick " + lastTick[0]);
        for (int i = 0; i < 4; i++) {
            assertEquals(0, c.replica(i).claims.size(), "node " + i + " still keeps claims of it");
        }
        assertEquals(0, c.replica(0).requests.waitingCount(), "abandoned: no longer waiting");
        assertNull(c.replica(0).requests.body(bad.digest()), "abandoned: its body is gone");
        // The client sends it again: admitted afresh, and claimed once more.
        claims.clear();
        c.send(bad, 0);
        c.tickAndDeliver(1, f -> {
            if (f.from() == 0 && f.message() instanceof Claim cl && cl.refs().contains(bad.ref())) {
                claims.add(cl);
            }
            return true;
        });
        assertEquals(1, c.replica(0).requests.waitingCount());
        assertFalse(claims.isEmpty(), "a retransmission is claimed again");
    }

    @Test
    void aRequestValidAtOneReplicaOnlyIsAbandonedAndForcesNoViewChange() {
        TestCluster c = cluster();
        Request bad = TestCluster.request("faulty-client", 1);
        c.send(bad, 1); // only node 1's entry verifies
        c.tickAndDeliver(10 * TIMEOUT);
        assertTrue(c.viewChangesStarted.isEmpty(), "a faulty client forced a view change");
        for (int i = 0; i < 4; i++) {
            assertTrue(c.executedIds(i).isEmpty(), "node " + i);
            assertEquals(0, c.replica(i).requests.waitingCount(), "node " + i + " still holds it");
            assertEquals(0, c.replica(i).claims.size(), "node " + i + " still keeps claims of it");
        }
        Request good = TestCluster.request("correct-client", 1);
        c.send(good);
        c.tickAndDeliver(3);
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(good.id()), c.executedIds(i), "node " + i + ": other clients are served");
        }
    }

    @Test
    void aCertifiedRequestIsProposedEvenWhenAFaultyClientFilledItsVariants() {
        TestCluster c = cluster();
        // A faulty client fills the primary's variants of one id with requests only the primary authenticates ...
        for (int v = 0; v < RequestBodies.MAX_VARIANTS; v++) {
            c.send(new Request(new RequestId("faulty-client", 1),
                    ("primary only " + v).getBytes(StandardCharsets.UTF_8)), 0);
        }
        c.deliverAll();
        // ... then sends the backups one more that they all authenticate: certified on their signed claims, its
        // certificate forwarded to the primary, which must be able to order it.
        Request certified = new Request(new RequestId("faulty-client", 1), "backups".getBytes(StandardCharsets.UTF_8));
        c.send(certified, 1, 2, 3);
        c.tickAndDeliver(4 * TIMEOUT);
        assertTrue(c.viewChangesStarted.isEmpty(), "a faulty client forced a view change");
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of(certified.digest()), c.executed.get(i).stream()
                    .flatMap(e -> e.requests().stream()).map(Request::digest).toList(), "node " + i);
        }
    }
}
