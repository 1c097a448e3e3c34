package org.bftws.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bftws.core.Digest;
import org.bftws.core.Request;
import org.bftws.core.RequestId;
import org.junit.jupiter.api.Test;

/** The simulator's checker flags each kind of violation (so a clean run means something). */
class OracleTest {

    private final Signatures signatures = new Signatures();
    private final Oracle oracle = new Oracle(signatures);

    private Request signed(String client, long n) {
        Request r = new Request(new RequestId(client, n), (client + n).getBytes());
        signatures.clientSigns(r);
        return r;
    }

    @Test
    void twoCorrectNodesCommittingDifferentBatchesAtOneSequenceNumberIsAnAgreementViolation() {
        oracle.committed(0, 5, Digest.of(new byte[] {1}));
        oracle.committed(1, 5, Digest.of(new byte[] {2}));
        assertTrue(oracle.violations().get(0).startsWith("agreement"));
    }

    @Test
    void executingARequestNoClientSentIsAValidityViolation() {
        oracle.executed(0, 1, List.of(new Request(new RequestId("ghost", 1), new byte[] {1})));
        assertTrue(oracle.violations().get(0).startsWith("validity"));
    }

    @Test
    void executingOneRequestAtTwoSequenceNumbersIsAnExactlyOnceViolation() {
        Request r = signed("c", 1);
        oracle.executed(0, 1, List.of(r));
        oracle.executed(0, 2, List.of(r));
        assertTrue(oracle.violations().get(0).startsWith("exactly-once"));
    }

    @Test
    void acceptingAReplyTheCorrectExecutorsDidNotProduceIsAClientSafetyViolation() {
        Request r = signed("c", 1);
        oracle.replied(0, r.id(), new byte[] {1});
        oracle.accepted("c", r.id(), new byte[] {2});
        assertTrue(oracle.violations().get(0).startsWith("client safety"));
    }

    @Test
    void aCorrectNodeStillClaimingAFloodedRequestLongAfterAdmittingItIsReportedUnlessTheRequestWasOrdered() {
        Request abandoned = signed("flooder~1", 1);
        Request ordered = signed("flooder~2", 1);
        oracle.floodAdmitted(0, abandoned.ref(), 10);
        oracle.floodAdmitted(0, ordered.ref(), 10);
        oracle.floodClaimed(0, abandoned.ref(), 100, 100, "Claim"); // within the bound: a retry
        oracle.floodClaimed(0, ordered.ref(), 200, 100, "Claim");
        oracle.executed(0, 1, List.of(ordered));
        oracle.reportClaimsAfterAbandonment();
        assertTrue(oracle.violations().isEmpty(), oracle.violations().toString());
        oracle.floodClaimed(0, abandoned.ref(), 111, 100, "SignedClaim");
        oracle.reportClaimsAfterAbandonment();
        assertEquals(1, oracle.violations().size(), oracle.violations().toString());
        assertTrue(oracle.violations().get(0).startsWith("claims after abandonment"));
    }
}
