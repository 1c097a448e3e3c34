package org.bftws.sim;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.bftws.core.Membership;
import org.bftws.core.Reply;
import org.bftws.core.ReplyPolicy;
import org.bftws.core.Request;
import org.bftws.core.RequestId;
import org.bftws.core.Voter;

/**
 * A client of the simulator: it sends one request at a time to every agreement node (BFT-WS multicasts), votes on
 * the replies (f+1 identical from distinct executors) and retransmits to all after a timeout. A Byzantine client
 * instead sends two different requests under every id, each to half of the nodes, and never waits; when requests are
 * authenticated with MACs, it also makes each request's authenticator valid at a random set of nodes only (the
 * others refuse the request, and a copy relayed to them is only a body there).
 */
final class SimClient {

    static final int RETRANSMIT_TICKS = 40;

    private final String id;
    private final int requests;
    private final boolean byzantine;
    private final Membership membership;
    private final Set<Integer> executors;
    private int next = 1;
    private Request current;
    private Voter voter;
    private long lastSent;
    private long issuedAt;
    private boolean done;
    private long maxLatency;

    private final java.util.Random rnd;

    SimClient(String id, int requests, boolean byzantine, Membership membership, java.util.Random rnd) {
        this.rnd = rnd;
        this.id = id;
        this.requests = requests;
        this.byzantine = byzantine;
        this.membership = membership;
        this.executors = Set.copyOf(membership.executors());
    }

    String id() {
        return id;
    }

    boolean byzantine() {
        return byzantine;
    }

    boolean done() {
        return done;
    }

    long issuedAt() {
        return issuedAt;
    }

    long maxLatency() {
        return maxLatency;
    }

    int completed() {
        return next - 1;
    }

    void onTick(long now, Simulation sim) {
        if (done) {
            return;
        }
        if (byzantine) {
            if (now % 25 == 0) {
                sendEquivocatingRequest(sim);
            }
            return;
        }
        if (current == null) {
            current = new Request(new RequestId(id, next), payload(next, ""));
            sim.signatures().clientSigns(current);
            voter = new Voter(current.id(), membership.f(), executors, ReplyPolicy.WEAK_QUORUM);
            issuedAt = now;
            sendToAll(sim, now);
        } else if (now - lastSent >= RETRANSMIT_TICKS) {
            sendToAll(sim, now);
        }
    }

    private void sendToAll(Simulation sim, long now) {
        for (int node = 0; node < membership.agreementCount(); node++) {
            sim.clientSends(this, node, current);
        }
        lastSent = now;
    }

    private void sendEquivocatingRequest(Simulation sim) {
        Request a = new Request(new RequestId(id, next), payload(next, "a"));
        Request b = new Request(new RequestId(id, next), payload(next, "b"));
        sim.signatures().clientSigns(a);
        sim.signatures().clientSigns(b);
        boolean equivocate = rnd.nextBoolean();
        sim.authenticatorValidAt(a, partOfTheNodes());
        sim.authenticatorValidAt(b, partOfTheNodes());
        for (int node = 0; node < membership.agreementCount(); node++) {
            sim.clientSends(this, node, !equivocate || node % 2 == 0 ? a : b);
        }
        if (++next > requests) {
            done = true;
        }
    }

    /** The nodes where a request's MAC authenticator verifies (only matters when requests use MACs). */
    private java.util.Set<Integer> partOfTheNodes() {
        java.util.Set<Integer> valid = new java.util.HashSet<>();
        int size = rnd.nextInt(membership.agreementCount() + 1);
        while (valid.size() < size) {
            valid.add(rnd.nextInt(membership.agreementCount()));
        }
        return valid;
    }

    private byte[] payload(int number, String variant) {
        return (id + ":" + number + variant).getBytes(StandardCharsets.UTF_8);
    }

    void onReply(Reply reply, long now, Simulation sim) {
        if (current == null || byzantine || !reply.request().equals(current.id())) {
            return;
        }
        Voter.Outcome o = voter.add(reply);
        if (o.state() == Voter.State.ACCEPTED) {
            sim.oracle().accepted(id, current.id(), o.result());
            sim.trace(now, id + " accepted " + current.id());
            maxLatency = Math.max(maxLatency, now - issuedAt);
            current = null;
            if (++next > requests) {
                done = true;
            }
        } else if (o.state() == Voter.State.INCONCLUSIVE) {
            sim.trace(now, id + " could not decide on " + current.id() + "; asks again");
            voter = new Voter(current.id(), membership.f(), executors, ReplyPolicy.WEAK_QUORUM);
        }
    }
}
