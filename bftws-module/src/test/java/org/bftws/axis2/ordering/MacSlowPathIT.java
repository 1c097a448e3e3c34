package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.client.ServiceClient;
import org.bftws.security.RefusalReason;
import org.bftws.axis2.security.SecurityRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/protocol.md's slow path on the real stack (issue 34, analysis T3): four {@code mac} replicas over real HTTP
 * and a client whose request authenticator is wrong at the primary only. The primary refuses every copy; the three
 * backups authenticate it, claim it, sign their claims after max(fetchTimeout, viewChangeTimeout / 4) and so certify
 * it; the primary proposes it on the certificate, with the body fetched from a signer. The request must be executed
 * by every replica with no view change started anywhere; so must the client's next requests, each on the slow path
 * again. Since the primary refused every copy and the view stayed 0, the primary proposed it on the certificate: no
 * other way leads to its execution. How fast the slow path is, is not what this checks (the test waits for the
 * replicas to agree, with a deadline meant for a loaded machine).
 */
class MacSlowPathIT {
    /** How long the replicas may take to reach the same state on a loaded machine: a deadline, not a measure. */
    private static final long DEADLINE_MILLIS = 120_000;
    /** Consecutive calls of the faulty client. */
    private static final int CALLS = 3;

    @TempDir
    Path dir;

    @Test
    void aRequestValidAtTheBackupsOnlyIsExecutedEverywhereOnItsCertificateWithoutAViewChange() throws Exception {
        slowPath(CorruptPrimaryEntryHandler.class);
    }

    @Test
    void aClientWhoseEveryMessageFailsAtThePrimaryStillHasItsRequestExecutedEverywhereWithoutAViewChange()
            throws Exception {
        // the attacker: its CreateSequence too is refused by the primary, which never learns the sequence
        slowPath(CorruptPrimaryEntryEverywhereHandler.class);
    }

    private void slowPath(Class<? extends CorruptPrimaryEntryHandler> tamper) throws Exception {
        try (BftTestGroup group = BftTestGroup.start(dir, "mac", BftTestGroup.protocol(4, "2s"))) {
            // an honest call first: the client's sequence exists everywhere, the group is warm
            BftTestGroup.call(group.client(), BftTestGroup.append("honest"));
            long refusedBefore = SecurityRuntime.of(group.context(0)).refusals().count(RefusalReason.MAC_MISMATCH);
            ServiceClient faulty = group.client(group.replicasXml(), tamper);
            long start = System.nanoTime();
            OMElement reply = null;
            for (int n = 1; n <= CALLS; n++) { // each the client's next request, each on the slow path
                reply = BftTestGroup.call(faulty, BftTestGroup.append("valid-at-the-backups-" + n));
            }
            long decidedMillis = (System.nanoTime() - start) / 1_000_000;
            String count = BftTestGroup.child(reply, "count");
            List<String> states = new ArrayList<>();
            long deadline = System.nanoTime() + DEADLINE_MILLIS * 1_000_000;
            while (true) {
                states.clear();
                for (int i = 0; i < 4; i++) {
                    states.add(group.state(i));
                }
                if (states.stream().allMatch(s -> s.endsWith("/" + count) && s.equals(states.get(0)))
                        || System.nanoTime() > deadline) {
                    break;
                }
                Thread.sleep(50);
            }
            String why = CALLS + " calls decided after " + decidedMillis + " ms; states " + states
                    + "; counters of replica0 " + group.node(0).replica().counters();
            assertTrue(states.stream().allMatch(s -> s.equals(states.get(0)) && s.endsWith("/" + count)), why);
            assertTrue(SecurityRuntime.of(group.context(0)).refusals().count(RefusalReason.MAC_MISMATCH)
                    > refusedBefore, "the primary refused the request itself: " + why);
            for (int i = 0; i < 4; i++) {
                Map<String, Long> counters = group.node(i).replica().counters();
                assertEquals(0L, counters.getOrDefault("view changes started", 0L),
                        "replica" + i + " suspected the primary: " + why);
                assertEquals(0, group.node(i).replica().manager().view(), "replica" + i + " changed view: " + why);
            }
        }
    }
}
