package org.bftws.sim;

import java.util.List;
import org.bftws.core.Claim;
import org.bftws.core.Destination;
import org.bftws.core.Message;
import org.bftws.core.ReplicaOptions;
import org.bftws.core.Request;
import org.bftws.core.RequestRef;
import org.bftws.core.SignedClaim;

/**
 * What the simulation watches of the flooding client's requests (issue 34): when each correct node last admitted one,
 * in that node's own ticks (a paused node's time stands still), and the claims it still broadcasts for them, which
 * {@link Oracle} reports once they outlive an upper bound of the core's abandonment time.
 */
final class FloodWatch {
    private final Scenario scenario;
    private final Oracle oracle;
    /** Ticks each node has run. */
    private final long[] ticked;

    FloodWatch(Scenario scenario, Oracle oracle, int nodes) {
        this.scenario = scenario;
        this.oracle = oracle;
        this.ticked = new long[nodes];
    }

    /** Node {@code i} ran a tick. */
    void ticked(int i) {
        ticked[i]++;
    }

    /**
     * Ticks after a correct node last admitted a request by which it has stopped claiming it if nobody corroborated
     * it: an upper bound of the core's abandonment time (its claims, their retries after 1, 3 and 7 status periods,
     * the slow path) plus its scan period.
     */
    private long quiet() {
        ReplicaOptions o = scenario.options();
        long slow = Math.max(o.fetchTimeout(), o.viewChangeTimeout() / 4);
        return 2L * o.viewChangeTimeout() + 8L * o.statusPeriod() + 4L * o.fetchTimeout() + slow;
    }

    /** The tick from which the flood's requests must no longer be claimed by correct nodes (-1: no flood). */
    long quietFrom() {
        return scenario.flood().on() ? scenario.flood().to() + quiet() : -1;
    }

    /** Node {@code node} admits request {@code r} (from its client or relayed). */
    void admitted(int node, Request r) {
        if (flooded(r.ref())) {
            oracle.floodAdmitted(node, r.ref(), ticked[node]);
        }
    }

    /**
     * Node {@code from} sends {@code m} to {@code to}. What counts are the claims it broadcasts (its claims, their
     * retries, its signed claim): not a certificate forwarded to the primary nor an answer to a node that asked for a
     * request it holds (both go to one node, and only for a request some correct node can prove, or one it holds).
     */
    void sent(int from, Message m, Destination to) {
        if (!scenario.flood().on() || scenario.faulty(from) || !(to instanceof Destination.AgreementNodes)) {
            return;
        }
        List<RequestRef> claimed = m instanceof Claim c ? c.refs()
                : m instanceof SignedClaim sc && sc.sender() == from ? sc.refs() : List.of();
        for (RequestRef ref : claimed) {
            if (flooded(ref)) {
                oracle.floodClaimed(from, ref, ticked[from], quiet(), m.getClass().getSimpleName());
            }
        }
    }

    private static boolean flooded(RequestRef ref) {
        return SimClient.clientOf(ref.id().client()).equals(SimClient.FLOODER);
    }
}
