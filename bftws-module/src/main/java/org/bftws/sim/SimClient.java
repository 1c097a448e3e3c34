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
 *
 * <p>With sequence expiry, a correct client's sequence identifier carries its creation time ("name@ms", read by
 * {@link #RULES}); a client told that its sequence expired does not know whether the refused request executed
 * before the expiry (its reply may have been lost), so it does not send it again: it counts it as an unknown outcome
 * and goes on with its next request in a new sequence. An idle client stops in the middle of its requests for longer
 * than the idle limit, comes back with its next request (which must be refused as expired), replays its first
 * request on the expired sequence (which must not execute again), and goes on in a new sequence.
 */
final class SimClient {

    static final int RETRANSMIT_TICKS = 40;

    /** A read-only request: number {@code number} of client {@code client}'s reads, answered outside the order. */
    record Read(String client, int number) {
    }

    /** Executor {@code sender}'s answer to a read: its service's state ({@link SimApplication#getState}). */
    record ReadAnswer(String client, int number, int sender, byte[] value) {
    }

    /** Whether and how this client reads; off unless {@link #reading} says otherwise. */
    private Scenario.Reads reads = Scenario.Reads.OFF;
    /**
     * What the group's clients read: a client that does not read itself still writes with the policy that other
     * clients' reads need (as {@code ReplyVoting.writesNeedStrongQuorum} makes every client of such a group do; a
     * replayer writing on f+1 let another client's read miss its completed write, simulator seed 146594).
     */
    private Scenario.Reads groupReads = Scenario.Reads.OFF;
    private boolean readingNow;
    private int readNumber;
    private long readIssuedAt;
    private long readLowerBound;
    private final java.util.Map<Integer, byte[]> readAnswers = new java.util.HashMap<>();
    /** The request in flight is a read sent ordered after all: it is not one of the client's requests. */
    private boolean fallbackRead;

    /** The client's name; {@link #id} is its current sequence. */
    private final String name;
    private String id;
    private int generation;
    /** Requests finished (answered, or refused as expired: unknown outcome), over all of its sequences. */
    private int finished;
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
    /** The idle client: ticks it stays away half-way (0: never), and where it stands. */
    private final long idleTicks;
    private long idleFrom = -1;
    private boolean wasIdle;
    private Request replayAfterExpiry;
    private final boolean timed;
    private Request current;
    private Voter voter;
    private long lastSent;
    private long issuedAt;
    private boolean done;
    private long maxLatency;

    private final java.util.Random rnd;
    /** What the flooding client sends (issue 34); null for every other client. */
    private FloodingClient flooding;

    SimClient(String id, int requests, boolean byzantine, Membership membership, java.util.Random rnd) {
        this(id, requests, byzantine, false, false, membership, rnd, false, 0);
    }

    /**
     * @param timed     sequence identifiers carry their creation time (schedules with expiry)
     * @param idleTicks the idle client's time away (0: not idle)
     */
    SimClient(String id, int requests, boolean byzantine, boolean terminates, boolean replayer, Membership membership,
              java.util.Random rnd, boolean timed, long idleTicks) {
        this.terminates = terminates || replayer;
        this.replayer = replayer;
        this.rnd = rnd;
        this.name = id;
        this.id = id;
        this.timed = timed;
        this.idleTicks = idleTicks;
        this.requests = requests;
        this.byzantine = byzantine;
        this.membership = membership;
        this.executors = Set.copyOf(membership.executors());
    }

    /** A faulty client that floods the group as {@code flood} says ({@link Scenario.Flood}). */
    static SimClient flooder(Scenario.Flood flood, Membership membership, java.util.Random rnd, boolean timed) {
        SimClient c = new SimClient(FLOODER, 0, true, false, false, membership, rnd, timed, 0);
        c.flooding = new FloodingClient(FLOODER, flood, membership, rnd, timed);
        return c;
    }

    /** The flooding client's name; its sequences are "flooder~k". */
    static final String FLOODER = "flooder";

    /** Makes this client read the state after each of its requests, as {@code reads} says. */
    SimClient reading(Scenario.Reads reads) {
        this.reads = reads;
        this.groupReads = reads;
        return this;
    }

    /** Makes this client write as the clients of a group where others read as {@code reads} says. */
    SimClient amongReaders(Scenario.Reads reads) {
        this.groupReads = reads;
        return this;
    }

    /**
     * How many identical replies an ordered request is accepted on: f+1, or 2f+1 when the group's clients read and the
     * group has 3f+1 executors (a read's 2f+1 must then meet a correct executor of every completed write).
     */
    private ReplyPolicy writePolicy() {
        // not the TerminateSequence: it changes no state a read sees, and correct executors may answer a retransmitted
        // one differently (its reply, or that the sequence ended), which 2f+1 identical could wait for forever (seed
        // 1577 got stuck so)
        boolean strong = groupReads.on() && groupReads.rule() != Scenario.ReadRule.F_PLUS_ONE_WRITES
                && executors.size() >= 3 * membership.f() + 1 && (current == null || !terminates(current));
        return strong ? ReplyPolicy.STRONG_QUORUM : ReplyPolicy.WEAK_QUORUM;
    }

    private int readThreshold() {
        return reads.rule() == Scenario.ReadRule.F_PLUS_ONE_READS ? membership.f() + 1
                : Math.min(2 * membership.f() + 1, executors.size());
    }

    /** A read: to every executor, once; the lower bound is what had completed when it began. */
    private void startRead(long now, Simulation sim) {
        readingNow = true;
        readNumber++;
        readAnswers.clear();
        readIssuedAt = now;
        readLowerBound = sim.oracle().completedThrough();
        Read read = new Read(name, readNumber);
        for (int node : membership.executors()) { // in id order: Set.copyOf's order changes from JVM to JVM
            sim.clientReads(this, node, read);
        }
    }

    void onReadAnswer(ReadAnswer a, long now, Simulation sim) {
        if (!readingNow || a.number() != readNumber || !executors.contains(a.sender())
                || readAnswers.containsKey(a.sender())) {
            return;
        }
        readAnswers.put(a.sender(), a.value());
        java.util.Map<String, Integer> same = new java.util.HashMap<>();
        int best = 0;
        for (byte[] v : readAnswers.values()) {
            best = Math.max(best, same.merge(java.util.Arrays.toString(v), 1, Integer::sum));
        }
        int agreeing = same.get(java.util.Arrays.toString(a.value()));
        if (agreeing >= readThreshold()) {
            sim.oracle().acceptedRead(name, a.value(), readLowerBound);
            sim.count("reads accepted");
            sim.trace(now, name + " accepts read " + readNumber + ": the state after "
                    + SimApplication.count(a.value()) + " requests");
            readingNow = false;
        } else if (best + (executors.size() - readAnswers.size()) < readThreshold()) {
            fallBack(now, sim, "the answers disagree");
        }
    }

    /** The read goes out as an ordered request next (its reply is checked like any other). */
    private void fallBack(long now, Simulation sim, String why) {
        readingNow = false;
        fallbackRead = true;
        sim.count("reads fallen back");
        sim.trace(now, name + " sends read " + readNumber + " ordered: " + why);
    }

    /** The client's name (its address in the simulation); its sequences are named after it. */
    String id() {
        return name;
    }

    /** The sequence the client starts at {@code now}: "name@creation-ms" when sequences carry times. */
    private String sequenceAt(long now) {
        String seq = generation == 0 ? name : name + "~" + generation;
        return timed ? seq + "@" + now * Scenario.MS_PER_TICK : seq;
    }

    /**
     * The simulator's {@link org.bftws.core.SequenceRules}: a request whose payload says so terminates its sequence;
     * a sequence named "...@ms" was created at that time.
     */
    static final org.bftws.core.SequenceRules RULES = new org.bftws.core.SequenceRules() {
        @Override
        public boolean terminates(Request r) {
            return SimClient.terminates(r);
        }

        @Override
        public long createdAt(String client) {
            int at = client.lastIndexOf('@');
            if (at < 0) {
                return NO_CREATION_TIME;
            }
            try {
                return Long.parseLong(client.substring(at + 1));
            } catch (NumberFormatException e) {
                return NO_CREATION_TIME;
            }
        }
    };

    /** Whether this client misbehaves (it need not finish): the equivocating one, and the replayer. */
    boolean byzantine() {
        return byzantine || replayer;
    }

    /** The request that ends sequence {@code client} as its message {@code number}. */
    static Request terminateRequest(String client, long number) {
        return new Request(new RequestId(client, number),
                ("TERMINATE:" + client).getBytes(StandardCharsets.UTF_8));
    }

    /** The client a sequence belongs to: its identifier up to a generation ("~2") or creation time ("@ms"). */
    static String clientOf(String sequence) {
        int end = sequence.length();
        for (char c : new char[] {'~', '@'}) {
            int at = sequence.indexOf(c);
            if (at >= 0) {
                end = Math.min(end, at);
            }
        }
        return sequence.substring(0, end);
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
        return finished;
    }

    void onTick(long now, Simulation sim) {
        if (done && !ended) {
            return;
        }
        if (flooding != null) {
            flooding.onTick(now, sim, this);
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
        if (readingNow) {
            if (now - readIssuedAt >= RETRANSMIT_TICKS) {
                fallBack(now, sim, "no " + readThreshold() + " identical answers in time");
            } else {
                return;
            }
        }
        if (current == null && idleFrom >= 0 && now - idleFrom < idleTicks) {
            return; // away
        }
        if (current == null && generation == 0 && next == 1 && finished == 0) {
            id = sequenceAt(now);
        }
        if (current == null && replayAfterExpiry != null) {
            current = replayAfterExpiry;
            sim.trace(now, name + " replays " + current + " on its expired sequence");
            voter = new Voter(current.id(), membership.f(), executors, writePolicy());
            issuedAt = now;
            sendToAll(sim, now);
        } else if (current == null) {
            current = finished >= requests ? terminateRequest(id, next)
                    : new Request(new RequestId(id, next), payload(next, fallbackRead ? "read" : ""));
            sent.add(current);
            sim.signatures().clientSigns(current);
            voter = new Voter(current.id(), membership.f(), executors, writePolicy());
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
            current = k % 3 == 2 ? new Request(new RequestId(id, next + 1L + k), payload(next + 1 + k, "late"))
                    : sent.get(k % sent.size());
            sim.signatures().clientSigns(current);
            voter = new Voter(current.id(), membership.f(), executors, writePolicy());
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
        sim.authenticators().validAt(a, partOfTheNodes());
        sim.authenticators().validAt(b, partOfTheNodes());
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
        java.util.Optional<String> refused = o.state() == Voter.State.ACCEPTED ? Reply.endedReason(o.result())
                : java.util.Optional.empty();
        if (o.state() == Voter.State.ACCEPTED && replayAfterExpiry != null && current == replayAfterExpiry) {
            // the replay on the expired sequence: refused, or answered from a lagging executor's table (not executed)
            sim.oracle().acceptedEnded(name, current.id(), o.result());
            sim.count("replays refused: sequence expired");
            sim.trace(now, name + " was told about its replay " + current.id() + ": " + refused.orElse("its old reply"));
            replayAfterExpiry = null;
            current = null;
            newSequence(now);
        } else if (o.state() == Voter.State.ACCEPTED && ended) {
            sim.oracle().acceptedEnded(name, current.id(), o.result());
            sim.replayRefused();
            sim.trace(now, name + " was told its sequence ended, for " + current.id());
            current = null;
        } else if (refused.isPresent() && !refused.get().equals(Reply.TERMINATED)) {
            // expired (or not valid yet): the request may have executed before the expiry; never sent again
            sim.oracle().acceptedEnded(name, current.id(), o.result());
            sim.count(wasIdle ? "idle clients refused as expired" : "requests refused: sequence " + refused.get());
            sim.trace(now, name + " was told its sequence is " + refused.get() + " at " + current.id());
            maxLatency = Math.max(maxLatency, now - issuedAt);
            fallbackRead = false;
            boolean wasTerminate = finished >= requests;
            Request first = current.id().number() > 1 && !wasTerminate
                    ? new Request(new RequestId(id, 1), payload(1, "")) : null;
            current = null;
            if (wasTerminate) {
                done = true;
                return;
            }
            finished++;
            if (wasIdle && first != null) {
                wasIdle = false;
                replayAfterExpiry = first; // identical bytes to what executed before, validly signed
                sim.signatures().clientSigns(first);
                return;
            }
            newSequence(now);
            if (finished >= requests && !terminates) {
                done = true;
            }
        } else if (o.state() == Voter.State.ACCEPTED && finished >= requests) {
            // its TerminateSequence: told that the sequence ended (executed now, or gone already: ended or expired)
            sim.oracle().acceptedEnded(name, current.id(), o.result());
            sim.trace(now, name + " accepted the end of its sequence with " + current.id());
            maxLatency = Math.max(maxLatency, now - issuedAt);
            current = null;
            done = true;
            ended = replayer;
        } else if (o.state() == Voter.State.ACCEPTED) {
            sim.oracle().accepted(name, current.id(), o.result());
            if (wasIdle && idleFrom >= 0 && now - idleFrom >= idleTicks) {
                sim.oracle().notExpired(name, current.id());
            }
            sim.trace(now, name + " accepted " + current.id());
            maxLatency = Math.max(maxLatency, now - issuedAt);
            current = null;
            next++;
            if (fallbackRead) {
                fallbackRead = false; // the read, answered in order: not one of the client's requests
                return;
            }
            if (++finished >= requests && !terminates) {
                done = true;
            }
            if (reads.on() && finished < requests) {
                startRead(now, sim);
            }
            if (idleTicks > 0 && !wasIdle && idleFrom < 0 && finished == Math.max(1, requests / 2) && finished < requests) {
                idleFrom = now;
                wasIdle = true;
                sim.trace(now, name + " goes idle for " + idleTicks + " ticks");
            }
        } else if (o.state() == Voter.State.INCONCLUSIVE) {
            sim.trace(now, name + " could not decide on " + current.id() + "; asks again");
            voter = new Voter(current.id(), membership.f(), executors, writePolicy());
        }
    }

    /** Goes on in a new sequence (its identifier made now): its first request is number 1. */
    private void newSequence(long now) {
        generation++;
        id = sequenceAt(now);
        next = 1;
    }
}
