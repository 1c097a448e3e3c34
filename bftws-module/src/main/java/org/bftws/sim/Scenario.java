package org.bftws.sim;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bftws.core.Membership;
import org.bftws.core.ReplicaOptions;

/**
 * One fault schedule, fully determined by its seed: the group, the workload, and the faults. Faults happen during
 * the first {@code faultTicks} ticks; afterwards the network is reliable, partitions heal and crashed nodes restart
 * (Byzantine nodes stay Byzantine). With {@code macRequests} clients authenticate their requests with MAC
 * authenticators (the {@code mac} profile): a node can check only its own entry, so every client is gated
 * (docs/protocol.md, "Requests authenticated with MACs") and the Byzantine client makes its authenticator valid at
 * only some nodes; without, requests carry signatures every node can check.
 */
public record Scenario(long seed, String configuration, Membership membership, ReplicaOptions options,
                       int correctClients, int requestsPerClient, boolean byzantineClient,
                       double loss, double duplication, int maxDelay, int faultTicks,
                       List<Partition> partitions, List<Crash> crashes, Map<Integer, Set<Behavior>> byzantine,
                       boolean macRequests, SequenceEnds ends, Expiry expiry, Reads reads, SlowService slow,
                       Flood flood) {

    /** A schedule without a flooding client. */
    public Scenario(long seed, String configuration, Membership membership, ReplicaOptions options,
                    int correctClients, int requestsPerClient, boolean byzantineClient,
                    double loss, double duplication, int maxDelay, int faultTicks,
                    List<Partition> partitions, List<Crash> crashes, Map<Integer, Set<Behavior>> byzantine,
                    boolean macRequests, SequenceEnds ends, Expiry expiry, Reads reads, SlowService slow) {
        this(seed, configuration, membership, options, correctClients, requestsPerClient, byzantineClient, loss,
                duplication, maxDelay, faultTicks, partitions, crashes, byzantine, macRequests, ends, expiry, reads,
                slow, Flood.NONE);
    }

    /**
     * A faulty client that floods the group (issue 34) from tick {@code from} to tick {@code to}: {@code perTick}
     * requests a tick, each sequence it opens carrying {@code perSequence} of them (numbers 1, 2, ...; beyond the
     * nodes' window some are too far ahead). Each request's MAC authenticator verifies, at random, nowhere, at the
     * primary of the current view only, at its backups only, or at f+1 random agreement nodes; and now and then the
     * client sends the primary {@code MAX_VARIANTS} different requests under one id, valid there only, and the
     * backups one more, valid at all of them (certified there: the primary must be able to order it). It never
     * retransmits. Only in schedules with MACs; with {@link #onlyTheClientMisbehaves} no view change may follow.
     */
    public record Flood(int from, int to, int perTick, int perSequence) {
        public static final Flood NONE = new Flood(-1, -1, 0, 0);

        public boolean on() {
            return perTick > 0;
        }

        @Override
        public String toString() {
            return on() ? perTick + " requests a tick from tick " + from + " to " + to + ", " + perSequence
                    + " per sequence" : "off";
        }
    }

    /** This schedule with {@code flood} as its flooding client. */
    public Scenario withFlood(Flood flood) {
        return new Scenario(seed, configuration, membership, options, correctClients, requestsPerClient,
                byzantineClient, loss, duplication, maxDelay, faultTicks, partitions, crashes, byzantine, macRequests,
                ends, expiry, reads, slow, flood);
    }

    /** A schedule without read-only requests. */
    public Scenario(long seed, String configuration, Membership membership, ReplicaOptions options,
                    int correctClients, int requestsPerClient, boolean byzantineClient,
                    double loss, double duplication, int maxDelay, int faultTicks,
                    List<Partition> partitions, List<Crash> crashes, Map<Integer, Set<Behavior>> byzantine,
                    boolean macRequests, SequenceEnds ends, Expiry expiry) {
        this(seed, configuration, membership, options, correctClients, requestsPerClient, byzantineClient, loss,
                duplication, maxDelay, faultTicks, partitions, crashes, byzantine, macRequests, ends, expiry,
                Reads.OFF, SlowService.NONE);
    }

    /**
     * One node's service is slower than its agreement during the fault period: each piece of its service work (a
     * batch's execution, a checkpoint's state, an installation) takes {@code ticks} ticks, one after the other, so
     * its executions fall behind what it commits (docs/protocol.md, "An executor that falls behind"). After the fault
     * period the queued work runs at once.
     */
    public record SlowService(int node, int ticks) {
        public static final SlowService NONE = new SlowService(-1, 0);

        public boolean on() {
            return node >= 0;
        }
    }

    /** This schedule with the nodes' options {@code changed}. */
    public Scenario withOptions(ReplicaOptions changed) {
        return new Scenario(seed, configuration, membership, changed, correctClients, requestsPerClient,
                byzantineClient, loss, duplication, maxDelay, faultTicks, partitions, crashes, byzantine, macRequests,
                ends, expiry, reads, slow, flood);
    }

    /** This schedule with {@code slow} as its slow service. */
    public Scenario withSlowService(SlowService slow) {
        return new Scenario(seed, configuration, membership, options, correctClients, requestsPerClient,
                byzantineClient, loss, duplication, maxDelay, faultTicks, partitions, crashes, byzantine, macRequests,
                ends, expiry, reads, slow, flood);
    }

    /**
     * Read-only requests (docs/protocol.md, "Read-only requests"): when {@code on}, every correct client ("c0"...)
     * reads the service's state after each of its requests: it sends the read to every executor, each correct one
     * answers at once from its current state (a Byzantine one lies), and the client accepts {@code rule}'s number of
     * identical answers within {@link SimClient#RETRANSMIT_TICKS}, else it sends the read as an ordered request.
     * {@code rule} is {@link ReadRule#CORRECT} in every generated schedule; the broken ones exist to show that the
     * oracle catches a wrong rule.
     */
    public record Reads(boolean on, ReadRule rule) {
        public static final Reads OFF = new Reads(false, ReadRule.CORRECT);
    }

    /** How many identical answers a read and a write are accepted on. */
    public enum ReadRule {
        /** Reads on 2f+1; writes on 2f+1 with 3f+1 executors (Configuration I), else f+1: w + r > executors + f. */
        CORRECT,
        /** Broken: reads on f+1 identical answers. */
        F_PLUS_ONE_READS,
        /** Broken: reads on 2f+1, but writes on f+1 in Configuration I as well. */
        F_PLUS_ONE_WRITES
    }

    /** This schedule with read-only requests as {@code reads} says. */
    public Scenario withReads(Reads reads) {
        return new Scenario(seed, configuration, membership, options, correctClients, requestsPerClient,
                byzantineClient, loss, duplication, maxDelay, faultTicks, partitions, crashes, byzantine, macRequests,
                ends, expiry, reads, slow, flood);
    }

    /** Simulated wall-clock milliseconds per tick (the nodes' clocks and the sequences' creation times). */
    public static final long MS_PER_TICK = 10;

    /**
     * Agreed time and expiry of idle sequences: {@code idleLimit} ms (0: off; then the options have none), the
     * backups' {@code clockBound} ms, each node's clock offset from true time in ms ({@code skew}; a node whose offset
     * lies beyond the bound has a lying clock), and whether an idle client (it stops for longer than the limit in the
     * middle of its requests, comes back, must be refused as expired, replays an old request, and goes on in a new
     * sequence) takes part.
     */
    public record Expiry(long idleLimit, long clockBound, long[] skew, boolean idler) {
        public static final Expiry OFF = new Expiry(0, 0, new long[0], false);

        public boolean on() {
            return idleLimit > 0;
        }

        public long skew(int node) {
            return node < skew.length ? skew[node] : 0;
        }

        /** Ticks the idle client stays away: the limit, twice the bound the agreed time may be off, and a margin. */
        public long idleTicks() {
            return (idleLimit + 2 * clockBound) / MS_PER_TICK + 50;
        }

        @Override
        public String toString() {
            return on() ? "idle limit " + idleLimit + " ms, clock bound " + clockBound + " ms, clock offsets "
                    + java.util.Arrays.toString(skew) + (idler ? ", an idle client" : "") : "off";
        }
    }

    /** A schedule without sequence expiry. */
    public Scenario(long seed, String configuration, Membership membership, ReplicaOptions options,
                    int correctClients, int requestsPerClient, boolean byzantineClient,
                    double loss, double duplication, int maxDelay, int faultTicks,
                    List<Partition> partitions, List<Crash> crashes, Map<Integer, Set<Behavior>> byzantine,
                    boolean macRequests, SequenceEnds ends) {
        this(seed, configuration, membership, options, correctClients, requestsPerClient, byzantineClient, loss,
                duplication, maxDelay, faultTicks, partitions, crashes, byzantine, macRequests, ends, Expiry.OFF);
    }

    /**
     * How client sequences end: {@code terminate}: every correct client ends its sequence with a TerminateSequence
     * (ordered like a request) after its last request; {@code replayer}: one more client does so too and then, like
     * a Byzantine client, replays its old requests and sends new ones on the ended sequence, none of which may execute.
     */
    public record SequenceEnds(boolean terminate, boolean replayer) {
        public static final SequenceEnds NONE = new SequenceEnds(false, false);
    }

    /** A schedule in which client sequences never end. */
    public Scenario(long seed, String configuration, Membership membership, ReplicaOptions options,
                    int correctClients, int requestsPerClient, boolean byzantineClient,
                    double loss, double duplication, int maxDelay, int faultTicks,
                    List<Partition> partitions, List<Crash> crashes, Map<Integer, Set<Behavior>> byzantine,
                    boolean macRequests) {
        this(seed, configuration, membership, options, correctClients, requestsPerClient, byzantineClient, loss,
                duplication, maxDelay, faultTicks, partitions, crashes, byzantine, macRequests, SequenceEnds.NONE);
    }

    /** Nodes in {@code isolated} can exchange no messages with the others during [from, to). */
    public record Partition(int from, int to, Set<Integer> isolated) {
    }

    /** How a crashed node comes back. */
    public enum Restart {
        /** The process was only paused: everything in memory is still there. */
        MEMORY,
        /** A new process recovers from what the node persisted (its data directory). */
        DISK,
        /** A new process with nothing: it counts as faulty (it may contradict what it voted before). */
        EMPTY
    }

    /** Node {@code node} is down during [at, restartAt), then comes back as {@code restart} says. */
    public record Crash(int node, int at, int restartAt, Restart restart) {
        public boolean amnesia() {
            return restart == Restart.EMPTY;
        }
    }

    /** Nodes that count against f: Byzantine ones and those that restart without memory. */
    public boolean faulty(int node) {
        return byzantine.containsKey(node) || crashes.stream().anyMatch(c -> c.node() == node && c.amnesia());
    }

    /**
     * Nothing misbehaves but the Byzantine client: no faulty or crashing node, no partition, no loss or duplication,
     * short delays. A view change in such a schedule would be one a client forced.
     */
    public boolean onlyTheClientMisbehaves() {
        return (byzantineClient || ends.replayer() || flood.on()) && byzantine.isEmpty() && crashes.isEmpty() && partitions.isEmpty() && loss == 0
                && duplication == 0 && maxDelay <= 3;
    }

    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append("seed ").append(seed).append(": configuration ").append(configuration).append(", f=")
                .append(membership.f()).append(", ").append(membership.size()).append(" nodes, ")
                .append(correctClients).append(" clients x ").append(requestsPerClient).append(" requests")
                .append(byzantineClient ? " + a Byzantine client" : "")
                .append(ends.replayer() ? " + a client replaying on its ended sequence" : "")
                .append(flood.on() ? " + a flooding client (" + flood + ")" : "")
                .append(macRequests ? ", requests authenticated with MACs" : "")
                .append(ends.terminate() ? ", clients terminate their sequences" : "")
                .append(reads.on() ? ", clients read (read-only requests, rule " + reads.rule() + ")" : "").append('\n');
        sb.append("  options ").append(options).append('\n');
        if (expiry.on()) {
            sb.append("  expiry: ").append(expiry).append('\n');
        }
        sb.append(String.format("  network: loss %.2f, duplication %.2f, delay 1..%d ticks; faults until tick %d%n",
                loss, duplication, maxDelay, faultTicks));
        partitions.forEach(p -> sb.append("  partition ").append(p).append('\n'));
        crashes.forEach(c -> sb.append("  crash ").append(c).append('\n'));
        byzantine.forEach((n, b) -> sb.append("  Byzantine node ").append(n).append(": ").append(b).append('\n'));
        if (slow.on()) {
            sb.append("  slow service: node ").append(slow.node()).append(", ").append(slow.ticks())
                    .append(" ticks per piece of work until tick ").append(faultTicks).append('\n');
        }
        return sb.toString();
    }

    /**
     * Ticks after the fault period within which every correct client must finish: room for f+2 view changes with
     * doubling timeouts, plus every request of a client waiting out a timeout (a slow primary) and retransmissions.
     */
    public long livenessBound() {
        long timeout = options().viewChangeTimeout();
        int f = membership().f();
        long perRequest = 2 * timeout + 2L * SimClient.RETRANSMIT_TICKS;
        if (reads().on()) {
            perRequest = 2 * perRequest + SimClient.RETRANSMIT_TICKS; // a read after each, which may fall back
        }
        return (timeout << (f + 3)) * 2 + (requestsPerClient() + 1L) * perRequest
                + (expiry().idler() ? expiry().idleTicks() + 2 * timeout + 2L * SimClient.RETRANSMIT_TICKS : 0);
    }
}
