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
 * the replies (f+1 identical from distinct executors) and retransmits to all after a timeout; one that terminates
 * ends its sequence after its last request with a TerminateSequence ({@link #terminateRequest}), ordered like a
 * request. A replaying client does all that and then misbehaves: it sends its old requests again, and new ones, on
 * the ended sequence; every correct executor must refuse them (none may execute). A Byzantine client
 * instead sends two different requests under every id, each to half of the nodes, and never waits; when requests are
 * authenticated with MACs, it also makes each request's authenticator valid at a random set of nodes only (the
 * others refuse the request, and a copy relayed to them is only a body there).
 */
final class SimClient {

    static final int RETRANSMIT_TICKS = 40;

    private final String id;
    private final int requests;
    private final boolean byzantine;
    private final boolean terminates;
    private final boolean replayer;
    /** The replayer's requests, kept to send again once its sequence ended. */
    private final java.util.List<Request> sent = new java.util.ArrayList<>();
    private boolean ended;
    private int replays;
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
        this(id, requests, byzantine, false, false, membership, rnd);
    }

    SimClient(String id, int requests, boolean byzantine, boolean terminates, boolean replayer, Membership membership,
              java.util.Random rnd) {
        this.terminates = terminates || replayer;
        this.replayer = replayer;
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

    /** Whether this client misbehaves (it need not finish): the equivocating one, and the replayer. */
    boolean byzantine() {
        return byzantine || replayer;
    }

    /** The request that ends sequence {@code client} after its {@code requests} requests. */
    static Request terminateRequest(String client, int requests) {
        return new Request(new RequestId(client, requests + 1L),
                ("TERMINATE:" + client).getBytes(StandardCharsets.UTF_8));
    }

    /** The simulator's {@link org.bftws.core.SequenceRules}: a request whose payload says so terminates its sequence. */
    static boolean terminates(Request r) {
        byte[] p = r.payload();
        byte[] marker = "TERMINATE:".getBytes(StandardCharsets.UTF_8);
        return p.length >= marker.length && java.util.Arrays.equals(p, 0, marker.length, marker, 0, marker.length);
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
        if (done && !ended) {
            return;
        }
        if (byzantine) {
            if (now % 25 == 0) {
                sendEquivocatingRequest(sim);
            }
            return;
        }
        if (ended) {
            replay(now, sim);
            return;
        }
        if (current == null) {
            current = next > requests ? terminateRequest(id, requests)
                    : new Request(new RequestId(id, next), payload(next, ""));
            sent.add(current);
            sim.signatures().clientSigns(current);
            voter = new Voter(current.id(), membership.f(), executors, ReplyPolicy.WEAK_QUORUM);
            issuedAt = now;
            sendToAll(sim, now);
        } else if (now - lastSent >= RETRANSMIT_TICKS) {
            sendToAll(sim, now);
        }
    }

    /**
     * The replayer, once its sequence ended: every few ticks one of its old requests again (identical bytes, validly
     * signed), or a new number, each to every node; it votes on the answers, which must say that the sequence ended.
     */
    private void replay(long now, Simulation sim) {
        if (current != null && now - lastSent < RETRANSMIT_TICKS) {
            return;
        }
        if (current == null || now - issuedAt > 4L * RETRANSMIT_TICKS) {
            int k = replays++;
            current = k % 3 == 2 ? new Request(new RequestId(id, requests + 2L + k), payload(requests + 2 + k, "late"))
                    : sent.get(k % sent.size());
            sim.signatures().clientSigns(current);
            voter = new Voter(current.id(), membership.f(), executors, ReplyPolicy.WEAK_QUORUM);
            issuedAt = now;
            sim.trace(now, id + " replays " + current + " on its ended sequence");
        }
        sendToAll(sim, now);
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
        if (o.state() == Voter.State.ACCEPTED && ended) {
            sim.oracle().acceptedEnded(id, current.id(), o.result());
            sim.replayRefused();
            sim.trace(now, id + " was told its sequence ended, for " + current.id());
            current = null;
        } else if (o.state() == Voter.State.ACCEPTED && next > requests) {
            sim.oracle().accepted(id, current.id(), o.result());
            sim.oracle().acceptedEnded(id, current.id(), o.result());
            sim.trace(now, id + " accepted the end of its sequence with " + current.id());
            maxLatency = Math.max(maxLatency, now - issuedAt);
            current = null;
            done = true;
            ended = replayer;
        } else if (o.state() == Voter.State.ACCEPTED) {
            sim.oracle().accepted(id, current.id(), o.result());
            sim.trace(now, id + " accepted " + current.id());
            maxLatency = Math.max(maxLatency, now - issuedAt);
            current = null;
            if (++next > requests && !terminates) {
                done = true;
            }
        } else if (o.state() == Voter.State.INCONCLUSIVE) {
            sim.trace(now, id + " could not decide on " + current.id() + "; asks again");
            voter = new Voter(current.id(), membership.f(), executors, ReplyPolicy.WEAK_QUORUM);
        }
    }
}
