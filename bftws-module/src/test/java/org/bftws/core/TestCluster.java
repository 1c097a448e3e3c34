package org.bftws.core;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A group of real nodes whose messages a test delivers by hand: nothing moves until the test says so, and the test
 * can hold back, drop or forge any message. Executions run a tiny order-dependent application (a running hash), so
 * replies and checkpoints reveal the order in which each node executed.
 */
final class TestCluster {

    /** A message on its way from one node to another. */
    record InFlight(int from, int to, Message message) {
    }

    final Membership membership;
    final ReplicaOptions options;
    final Node[] nodes;
    private final long[] appState;
    final List<InFlight> inFlight = new ArrayList<>();
    final Map<Integer, List<Output.Execute>> executed = new HashMap<>();
    final Map<Integer, List<Output.Committed>> committed = new HashMap<>();
    final Map<Integer, List<String>> dropped = new HashMap<>();
    final Map<Integer, List<Output.ViewInstalled>> views = new HashMap<>();
    final List<Reply> replies = new ArrayList<>();
    /** Tentative executions each node settled, in order: +seq when kept, -seq when rolled back. */
    final Map<Integer, List<Long>> settled = new HashMap<>();
    /** State installations each node ran (state transfers and rollbacks), by sequence number. */
    final Map<Integer, List<Long>> installs = new HashMap<>();
    /** Sequences each node reported expired, in order. */
    final Map<Integer, List<String>> expired = new HashMap<>();
    /** View changes started: the tick and node of each, in order. */
    final List<long[]> viewChangesStarted = new ArrayList<>();
    final boolean[] down;
    /** What each node persisted: its data directory. */
    final Map<Integer, List<DurableRecord>> disks = new HashMap<>();
    long tick;
    /** Clients whose requests need each replica's own admission (a caller group's virtual sequences). */
    private final Predicate<String> gated;
    private final SequenceRules rules;

    TestCluster(Membership membership, ReplicaOptions options) {
        this(membership, options, client -> false);
    }

    TestCluster(Membership membership, ReplicaOptions options, Predicate<String> gated) {
        this(membership, options, gated, SequenceRules.NONE);
    }

    TestCluster(Membership membership, ReplicaOptions options, Predicate<String> gated, SequenceRules rules) {
        this.gated = gated;
        this.rules = rules;
        this.membership = membership;
        this.options = options;
        this.nodes = new Node[membership.size()];
        this.appState = new long[membership.size()];
        this.down = new boolean[membership.size()];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = Node.create(i, membership, options, gated, rules);
            executed.put(i, new ArrayList<>());
            committed.put(i, new ArrayList<>());
            dropped.put(i, new ArrayList<>());
            views.put(i, new ArrayList<>());
            disks.put(i, new ArrayList<>());
            expired.put(i, new ArrayList<>());
            settled.put(i, new ArrayList<>());
            installs.put(i, new ArrayList<>());
        }
    }

    /** Sets node {@code i}'s wall clock ({@link Node#onClock}). */
    void clock(int i, long millis) {
        handle(i, nodes[i].onClock(millis));
    }

    /** Sets every node's wall clock to {@code millis}. */
    void clocks(long millis) {
        for (int i = 0; i < nodes.length; i++) {
            clock(i, millis);
        }
    }

    /** Four nodes of Configuration I, f = 1, with small windows and no batching delay. */
    static TestCluster configurationI() {
        return new TestCluster(Membership.configurationI(1), options(1));
    }

    static ReplicaOptions options(int batchMaxSize) {
        return new ReplicaOptions(4, 8, batchMaxSize, 0, 4, 50, 10, 10, 8);
    }

    static Request request(String client, long number) {
        return new Request(new RequestId(client, number), (client + ":" + number).getBytes(StandardCharsets.UTF_8));
    }

    Replica replica(int i) {
        return (Replica) nodes[i];
    }

    /** A client sends {@code r} to the given nodes (all agreement nodes when none are named). */
    void send(Request r, int... to) {
        int[] targets = to.length > 0 ? to : java.util.stream.IntStream.range(0, membership.agreementCount()).toArray();
        for (int n : targets) {
            if (!down[n]) {
                handle(n, nodes[n].onRequest(r));
            }
        }
    }

    /** Delivers a message directly, as if {@code m.sender()} had sent it to {@code to}. */
    void inject(int to, Message m) {
        handle(to, nodes[to].onMessage(m));
    }

    /** Delivers messages in flight, in order, until none are left; those {@code keep} rejects are lost. */
    void deliverAll(Predicate<InFlight> keep) {
        int guard = 0;
        while (!inFlight.isEmpty()) {
            if (++guard > 1_000_000) {
                throw new IllegalStateException("messages keep flowing: a livelock?");
            }
            InFlight f = inFlight.remove(0);
            if (keep.test(f) && !down[f.to()]) {
                handle(f.to(), nodes[f.to()].onMessage(f.message()));
            }
        }
    }

    void inflightClear() {
        inFlight.clear();
    }

    void deliverAll() {
        deliverAll(f -> true);
    }

    /** Ticks every live node {@code count} times, delivering what they send after each tick. */
    void tickAndDeliver(int count, Predicate<InFlight> keep) {
        for (int t = 0; t < count; t++) {
            tick++;
            for (int i = 0; i < nodes.length; i++) {
                if (!down[i]) {
                    handle(i, nodes[i].onTick());
                }
            }
            deliverAll(keep);
        }
    }

    /** One tick of node {@code i} alone; what it sends stays in flight. */
    void tickNode(int i) {
        handle(i, nodes[i].onTick());
    }

    void tickAndDeliver(int count) {
        tickAndDeliver(count, f -> true);
    }

    /** Restarts node {@code i} as a new process that recovers from its data directory (its application starts empty). */
    void restartFromDisk(int i) {
        nodes[i] = Node.create(i, membership, options, gated, rules);
        appState[i] = 0;
        down[i] = false;
        handle(i, nodes[i].recover(DurableState.of(disks.get(i))));
    }

    /** Restarts node {@code i} with empty memory and an empty application. */
    void restartEmpty(int i) {
        nodes[i] = Node.create(i, membership, options, gated, rules);
        appState[i] = 0;
        down[i] = false;
    }

    /**
     * Node {@code i}'s service work (executions, checkpoint states, installations) waits, in order, until
     * {@link #releaseServiceWork} runs it: an executor whose service is slower than its agreement.
     */
    void holdServiceWork(int i) {
        held.putIfAbsent(i, new ArrayList<>());
    }

    /** Runs node {@code i}'s held service work in order and stops holding it. */
    void releaseServiceWork(int i) {
        List<Output> work = held.remove(i);
        if (work != null) {
            handle(i, work);
        }
    }

    private final Map<Integer, List<Output>> held = new HashMap<>();

    /**
     * Nodes whose service refuses every set_state (leaving its state half-written) and fails every get_state, as a
     * service that cannot read a state does; the node is told with {@link Node#onExecutionFailed}.
     */
    final java.util.Set<Integer> serviceFails = new java.util.HashSet<>();

    private void handle(int i, List<Output> outputs) {
        for (Output o : outputs) {
            if (held.containsKey(i) && (o instanceof Output.Execute || o instanceof Output.TakeCheckpoint
                    || o instanceof Output.InstallState)) {
                held.get(i).add(o);
                continue;
            }
            if (o instanceof Output.Send s) {
                for (int to : destinations(i, s.to())) {
                    inFlight.add(new InFlight(i, to, s.message()));
                }
                if (s.to() instanceof Destination.Client && s.message() instanceof Reply r) {
                    replies.add(r);
                }
            } else if (o instanceof Output.Execute e) {
                executed.get(i).add(e);
                List<byte[]> results = new ArrayList<>();
                for (Request r : e.requests()) {
                    appState[i] = appState[i] * 31 + r.digest().hashCode();
                    results.add(Long.toString(appState[i]).getBytes(StandardCharsets.UTF_8));
                }
                handle(i, nodes[i].onExecuted(e.seq(), results));
            } else if (o instanceof Output.TakeCheckpoint t && serviceFails.contains(i)) {
                handle(i, nodes[i].onExecutionFailed(t.seq()));
            } else if (o instanceof Output.InstallState s && serviceFails.contains(i)) {
                installs.get(i).add(s.seq());
                appState[i] = -1;
                handle(i, nodes[i].onExecutionFailed(s.seq()));
            } else if (o instanceof Output.TakeCheckpoint t) {
                handle(i, nodes[i].onCheckpointState(t.seq(), Long.toString(appState[i]).getBytes(StandardCharsets.UTF_8)));
            } else if (o instanceof Output.InstallState s) {
                appState[i] = Long.parseLong(new String(s.applicationState(), StandardCharsets.UTF_8));
                installs.get(i).add(s.seq());
                handle(i, nodes[i].onStateInstalled(s.seq()));
            } else if (o instanceof Output.Persist persist) {
                disks.get(i).add(persist.record());
            } else if (o instanceof Output.Committed c) {
                committed.get(i).add(c);
            } else if (o instanceof Output.Dropped d) {
                dropped.get(i).add(d.what() + ": " + d.reason() + " [from node " + d.from() + "]");
            } else if (o instanceof Output.ViewInstalled v) {
                views.get(i).add(v);
            } else if (o instanceof Output.SequencesExpired x) {
                expired.get(i).addAll(x.clients());
            } else if (o instanceof Output.TentativeSettled t) {
                settled.get(i).add(t.kept() ? t.seq() : -t.seq());
            } else if (o instanceof Output.ViewChangeStarted v) {
                viewChangesStarted.add(new long[] {tick, i, v.view()});
            }
        }
    }

    private List<Integer> destinations(int from, Destination d) {
        List<Integer> list = new ArrayList<>();
        if (d instanceof Destination.Node n) {
            list.add(n.id());
        } else if (!(d instanceof Destination.Client)) {
            for (int i = 0; i < nodes.length; i++) {
                boolean wanted = d instanceof Destination.AllNodes
                        || (d instanceof Destination.AgreementNodes && membership.isAgreementNode(i))
                        || (d instanceof Destination.ExecutionNodes && !membership.isAgreementNode(i));
                if (wanted && i != from) {
                    list.add(i);
                }
            }
        }
        return list;
    }

    /** The request ids node {@code i} executed, in order. */
    List<RequestId> executedIds(int i) {
        List<RequestId> ids = new ArrayList<>();
        executed.get(i).forEach(e -> e.requests().forEach(r -> ids.add(r.id())));
        return ids;
    }

    long appState(int i) {
        return appState[i];
    }

    boolean droppedSomething(int i, String reasonFragment) {
        return dropped.get(i).stream().anyMatch(d -> d.contains(reasonFragment));
    }
}
