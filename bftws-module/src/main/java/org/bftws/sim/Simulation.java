package org.bftws.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.bftws.core.Destination;
import org.bftws.core.ForwardedRequests;
import org.bftws.core.Membership;
import org.bftws.core.Message;
import org.bftws.core.Node;
import org.bftws.core.Output;
import org.bftws.core.Reply;
import org.bftws.core.Request;
import org.bftws.core.RequestId;

/**
 * Runs one {@link Scenario}: the real PBFT core on every node, in one thread, under a seeded scheduler that drops,
 * delays, duplicates and reorders messages, partitions the network, crashes and restarts nodes, and lets Byzantine
 * nodes tamper with what they send. The {@link Oracle} checks safety after every event; at the end, every correct
 * client must have finished within the liveness bound after the faults stopped.
 */
public final class Simulation {

    /** What one schedule came to. */
    public record Result(Scenario scenario, List<String> violations, String stuck, long ticks, long messages,
                         long afterFaults, Map<String, Long> events, String trace) {

        public boolean ok() {
            return violations.isEmpty() && stuck == null;
        }
    }

    /** The client id of a caller group's virtual sequence: every node gates its requests (paper 3.4). */
    static final String NESTED_CLIENT = "nested-caller";
    /** Nested requests the SMUGGLE_NESTED nodes' gates let in, one every this many ticks of the fault period. */
    private static final int SMUGGLE_PERIOD = 40;
    private static final int SMUGGLED_MAX = 3;

    private final Scenario scenario;
    private final Membership membership;
    private final Random rnd;
    private final SimNetwork network;
    private final Signatures signatures = new Signatures();
    private final Oracle oracle = new Oracle(signatures);
    private final SimAuthenticators authenticators;
    private final Node[] nodes;
    private final SimApplication[] apps;
    /** Each node's service state before its last execution: what a Byzantine node passes off as a read's answer. */
    private final byte[][] previousState;
    /** The Byzantine nodes' choices of lie on reads, from a stream of their own. */
    private final Random lies;
    private final boolean[] down;
    private final Tamperer[] tamperers;
    /** What each node persisted (its data directory): survives a crash, read back on a restart from disk. */
    private final List<List<org.bftws.core.DurableRecord>> disks = new ArrayList<>();
    private final List<SimClient> clients = new ArrayList<>();
    private final Map<String, Integer> clientIndex = new HashMap<>();
    private final StringBuilder trace;
    private final Map<String, Long> events = new java.util.TreeMap<>();
    private final SlowServiceQueue slowService;
    private final TentativeWindows tentativeWindows;
    private final Observations observations;
    private long now;
    private final FloodWatch floodWatch;

    private Simulation(Scenario scenario, boolean traced) {
        this.scenario = scenario;
        this.slowService = new SlowServiceQueue(scenario);
        this.membership = scenario.membership();
        this.rnd = new Random(scenario.seed() * 0x9E3779B97F4A7C15L + 1);
        this.network = new SimNetwork(scenario, rnd);
        this.authenticators = new SimAuthenticators(scenario.macRequests());
        int n = membership.size();
        this.nodes = new Node[n];
        this.apps = new SimApplication[n];
        this.tentativeWindows = new TentativeWindows(n);
        this.observations = new Observations(this, scenario, oracle, tentativeWindows);
        if (scenario.options().tentativeExecution()) {
            oracle.tentativeExecution();
        }
        this.previousState = new byte[n][];
        this.lies = new Random(scenario.seed() ^ 0x6c696573L);
        this.down = new boolean[n];
        this.floodWatch = new FloodWatch(scenario, oracle, n);
        this.tamperers = new Tamperer[n];
        for (int i = 0; i < n; i++) {
            disks.add(new ArrayList<>());
            nodes[i] = Node.create(i, membership, scenario.options(), authenticators::gated, SimClient.RULES);
            apps[i] = new SimApplication();
            if (scenario.byzantine().containsKey(i)) {
                tamperers[i] = new Tamperer(i, scenario.byzantine().get(i), membership,
                        scenario.options().viewChangeTimeout(), new Random(scenario.seed() + i));
            }
        }
        boolean timed = scenario.expiry().on();
        for (int c = 0; c < scenario.correctClients(); c++) {
            addClient(new SimClient("c" + c, scenario.requestsPerClient(), false, scenario.ends().terminate(), false,
                    membership, null, timed, 0).reading(scenario.reads()));
        }
        if (scenario.ends().replayer()) {
            addClient(new SimClient("replayer", scenario.requestsPerClient(), false, true, true, membership, null,
                    timed, 0).amongReaders(scenario.reads()));
        }
        if (scenario.expiry().idler()) {
            addClient(new SimClient("idler", Math.max(2, scenario.requestsPerClient()), false,
                    scenario.ends().terminate(), false, membership, null, true, scenario.expiry().idleTicks())
                    .amongReaders(scenario.reads()));
        }
        if (scenario.byzantineClient()) {
            addClient(new SimClient("evil", scenario.requestsPerClient(), true, membership,
                    new Random(scenario.seed() ^ 0x5eed)));
        }
        if (scenario.flood().on()) {
            addClient(SimClient.flooder(scenario.flood(), membership, new Random(scenario.seed() ^ 0xf100dL), timed));
        }
        this.trace = traced ? new StringBuilder(scenario.describe()) : null;
    }

    private void addClient(SimClient c) {
        clientIndex.put(c.id(), clients.size());
        clients.add(c);
    }

    public static Result run(Scenario scenario, boolean traced) {
        return new Simulation(scenario, traced).run();
    }

    public static Result run(long seed, boolean traced) {
        return run(ScenarioGenerator.generate(seed), traced);
    }

    private Result run() {
        try {
            return runSchedule();
        } catch (RuntimeException e) {
            StringBuilder sb = new StringBuilder("exception at tick " + now + ": " + e);
            for (StackTraceElement el : e.getStackTrace()) {
                if (el.getClassName().startsWith("org.bftws")) {
                    sb.append("\n      at ").append(el);
                }
            }
            return new Result(scenario, List.of(sb.toString()), null, now, network.sent(), 0, events,
                    trace == null ? null : trace.toString());
        }
    }

    private Result runSchedule() {
        long limit = scenario.faultTicks() + scenario.livenessBound();
        for (now = 1; now <= limit; now++) {
            for (int i = 0; i < nodes.length; i++) {
                tellClock(i);
            }
            applyCrashes();
            for (SimNetwork.Envelope e : network.due(now)) {
                deliver(e);
            }
            for (int i = 0; i < nodes.length; i++) {
                if (!down[i]) {
                    floodWatch.ticked(i);
                    process(i, nodes[i].onTick());
                }
            }
            int slowNode = scenario.slow().node();
            slowService.runDue(now, slowNode >= 0 && down[slowNode], work -> runServiceWork(slowNode, work));
            for (SimClient c : clients) {
                c.onTick(now, this);
            }
            smuggleNested();
            if (!oracle.violations().isEmpty()
                    || (now > scenario.faultTicks() && correctClientsDone() && oracle.pendingAcceptances() == 0
                    && now > floodWatch.quietFrom() + 2L * scenario.options().statusPeriod())) {
                break;
            }
        }
        if (oracle.violations().isEmpty() && correctClientsDone()) {
            oracle.reportUnconfirmed();
        }
        if (oracle.violations().isEmpty()) {
            oracle.reportClaimsAfterAbandonment();
        }
        String stuck = oracle.violations().isEmpty() && !correctClientsDone() ? stuckReport() : null;
        return new Result(scenario, List.copyOf(oracle.violations()), stuck, now, network.sent(),
                Math.max(0, now - scenario.faultTicks()), events, trace == null ? null : trace.toString());
    }

    /** Node {@code i}'s wall clock: true time plus its offset (a lying clock's lies beyond the bound). */
    private void tellClock(int i) {
        if (scenario.expiry().on() && !down[i]) {
            process(i, nodes[i].onClock(Math.max(0, now * Scenario.MS_PER_TICK + scenario.expiry().skew(i))));
        }
    }

    /** The primary of the view the first correct agreement node is in: whom the flooding client aims at. */
    int currentPrimary() {
        for (int i = 0; i < membership.agreementCount(); i++) {
            if (!scenario.faulty(i)) {
                return membership.primary(nodes[i].view());
            }
        }
        return membership.primary(0);
    }

    static boolean isNested(String client) {
        return client.equals(NESTED_CLIENT);
    }

    SimAuthenticators authenticators() {
        return authenticators;
    }

    /**
     * SMUGGLE_NESTED: a faulty caller replica's copy of nested request k, validly signed, reaches only the nodes with
     * that behaviour, whose gates admit it alone; no correct node ever receives it, so none may execute it.
     */
    private void smuggleNested() {
        if (now > scenario.faultTicks() || now % SMUGGLE_PERIOD != 0 || now / SMUGGLE_PERIOD > SMUGGLED_MAX) {
            return;
        }
        Request r = new Request(new RequestId(NESTED_CLIENT, now / SMUGGLE_PERIOD),
                ("smuggled " + now).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        signatures.clientSigns(r);
        scenario.byzantine().forEach((i, behaviors) -> {
            if (behaviors.contains(Behavior.SMUGGLE_NESTED) && !down[i]) {
                count("nested requests smuggled");
                trace(() -> "node " + i + "'s gate lets in " + r + ", which one faulty caller replica sent");
                process(i, nodes[i].onRequest(r));
            }
        });
    }

    private boolean correctClientsDone() {
        return clients.stream().allMatch(c -> c.byzantine() || c.done());
    }

    private String stuckReport() {
        StringBuilder sb = new StringBuilder("not finished ").append(scenario.livenessBound())
                .append(" ticks after the faults stopped:");
        for (SimClient c : clients) {
            if (!c.byzantine() && !c.done()) {
                sb.append(' ').append(c.id()).append(" at request ").append(c.completed() + 1);
            }
        }
        for (int i = 0; i < nodes.length; i++) {
            sb.append(String.format("%n  node %d%s: %s", i, scenario.faulty(i) ? " (faulty)" : "",
                    nodes[i] instanceof org.bftws.core.Replica r ? r.describe() : "view " + nodes[i].view()
                            + ", executed " + nodes[i].lastExecuted() + ", stable " + nodes[i].stableCheckpoint()));
        }
        return sb.toString();
    }

    private void applyCrashes() {
        for (Scenario.Crash c : scenario.crashes()) {
            if (now == c.at()) {
                down[c.node()] = true;
                trace(() -> "node " + c.node() + " crashes" + (c.amnesia() ? " (loses its memory)" : ""));
            }
            if (now == Math.min(c.restartAt(), scenario.faultTicks())) {
                down[c.node()] = false;
                if (c.restart() != Scenario.Restart.MEMORY) {
                    // a new process: an unsettled tentative run died with the old one (a paused one keeps it)
                    tentativeWindows.crashed(c.node());
                    oracle.forget(c.node());
                    slowService.processDied(c.node());
                    nodes[c.node()] = Node.create(c.node(), membership, scenario.options(), authenticators::gated,
                            SimClient.RULES);
                    tellClock(c.node());
                    apps[c.node()] = new SimApplication();
                }
                trace(() -> "node " + c.node() + " restarts (" + c.restart() + ")");
                if (c.restart() == Scenario.Restart.DISK) {
                    count("restarts from disk");
                    process(c.node(), nodes[c.node()].recover(org.bftws.core.DurableState.of(disks.get(c.node()))));
                } else if (c.restart() == Scenario.Restart.EMPTY) {
                    disks.get(c.node()).clear();
                }
            }
        }
    }

    private void deliver(SimNetwork.Envelope e) {
        if (e.to() >= nodes.length) {
            SimClient c = clients.get(e.to() - nodes.length);
            if (e.payload() instanceof SimClient.ReadAnswer a) {
                if (a.sender() == e.from()) {
                    c.onReadAnswer(a, now, this);
                }
                return;
            }
            Reply r = (Reply) e.payload();
            if (r.sender() == e.from()) {
                c.onReply(r, now, this);
            }
            return;
        }
        if (down[e.to()]) {
            return;
        }
        if (e.payload() instanceof SimClient.Read read) {
            int to = e.to();
            tentativeWindows.answer(to, () -> {
                if (!down[to]) {
                    answerRead(to, e.from(), read);
                }
            });
            return;
        }
        if (e.payload() instanceof Request r) {
            if (!authenticators.authenticates(e.to(), r)) {
                count("requests refused: authenticator entry invalid");
                trace(() -> "client -> " + e.to() + " REFUSED (its authenticator entry does not verify) " + r);
                return;
            }
            trace(() -> "client -> " + e.to() + " " + r);
            if (isNested(r.id().client()) && !scenario.faulty(e.to())) {
                oracle.admittedNested(r);
            }
            floodWatch.admitted(e.to(), r);
            process(e.to(), nodes[e.to()].onRequest(r));
            return;
        }
        Message m = (Message) e.payload();
        if (!signatures.accepts(m, e.from(), !scenario.macRequests())) {
            count("authentication rejections");
            trace(() -> e.from() + " -> " + e.to() + " REJECTED (authentication) " + m);
            return;
        }
        trace(() -> e.from() + " -> " + e.to() + " " + m);
        if (tamperers[e.to()] != null) {
            tamperers[e.to()].saw(m);
        }
        if (m instanceof ForwardedRequests fw && scenario.macRequests()) {
            deliverRelayed(e.to(), fw);
            return;
        }
        process(e.to(), nodes[e.to()].onMessage(m));
    }

    /**
     * A read-only request reaches node {@code i}: a correct node answers at once from its service's current state
     * (between two executions: the simulator runs one thing at a time); a Byzantine node lies, with the state before
     * its last execution (what a lagging correct replica would say), the initial state, garbage, or now and then the
     * truth.
     */
    private void answerRead(int i, int client, SimClient.Read read) {
        byte[] value = apps[i].getState();
        if (scenario.byzantine().containsKey(i)) {
            int lie = lies.nextInt(4);
            value = lie == 0 && previousState[i] != null ? previousState[i]
                    : lie == 1 ? new SimApplication().getState()
                    : lie == 2 ? java.nio.ByteBuffer.allocate(16).putLong(lies.nextLong()).putLong(lies.nextInt(50)).array()
                    : value;
        }
        count("reads answered");
        SimClient.ReadAnswer answer = new SimClient.ReadAnswer(read.client(), read.number(), i, value);
        trace(() -> "node " + i + " answers " + read + " with the state after " + SimApplication.count(answer.value())
                + " requests");
        network.send(now, i, client, answer, 0);
    }

    /**
     * Relayed requests under MAC authenticators, as the adapter hands them over: one whose entry verifies here is
     * authenticated here (onRequest); the others are only bodies (a ForwardedRequests).
     */
    private void deliverRelayed(int to, ForwardedRequests fw) {
        List<Request> bodies = new ArrayList<>();
        for (Request r : fw.requests()) {
            if (!isNested(r.id().client()) && signatures.clientSigned(r) && authenticators.authenticates(to, r)) {
                floodWatch.admitted(to, r);
                process(to, nodes[to].onRequest(r));
            } else {
                bodies.add(r);
            }
        }
        if (!bodies.isEmpty()) {
            process(to, nodes[to].onMessage(new ForwardedRequests(bodies, fw.sender())));
        }
    }

    /** A batch's execution, a checkpoint's state or an installation, run by node {@code i}'s service now. */
    private void runServiceWork(int i, Output o) {
        boolean correct = !scenario.faulty(i);
        if (o instanceof Output.Execute e) {
            if (e.tentative()) {
                tentativeWindows.executedTentatively(i);
            }
            trace(() -> "node " + i + " executes " + e.seq() + (e.tentative() ? " tentatively" : "") + " in view "
                    + e.view() + ": " + e.requests().stream().map(r -> r.id().toString()).toList());
            if (correct) {
                observations.executed(i, e, () -> oracle.executed(i, e.seq(), e.requests()));
            }
            List<byte[]> results = new ArrayList<>();
            for (Request r : e.requests()) {
                // a TerminateSequence runs the WS-RM layer, not the service; the core answers it itself
                previousState[i] = apps[i].getState();
                byte[] result = SimClient.terminates(r) ? Reply.sequenceEnded("terminated") : apps[i].execute(r);
                results.add(result);
                if (correct) {
                    byte[] state = apps[i].getState();
                    observations.executed(i, e, () -> {
                        oracle.replied(i, r.id(), result);
                        oracle.executedState(i, r.id(), state);
                    });
                }
            }
            process(i, nodes[i].onExecuted(e.seq(), results));
        } else if (o instanceof Output.TakeCheckpoint t) {
            process(i, nodes[i].onCheckpointState(t.seq(), apps[i].getState()));
        } else if (o instanceof Output.InstallState s) {
            count(i == scenario.slow().node() ? "state transfers of a slow service" : "state transfers");
            apps[i].setState(s.applicationState());
            tentativeWindows.installed(i);
            trace(() -> "node " + i + " installs state at " + s.seq());
            process(i, nodes[i].onStateInstalled(s.seq()));
        }
    }

    private void process(int i, List<Output> outputs) {
        for (Output o : outputs) {
            if (o instanceof Output.Send s) {
                observations.sent(i, s, nodes[i].lastExecuted());
                route(i, s);
            } else if (SlowServiceQueue.isServiceWork(o)) {
                if (slowService.queued(i, o, now)) {
                    count("slow service: work queued");
                } else {
                    runServiceWork(i, o);
                }
            } else if (o instanceof Output.Persist p) {
                disks.get(i).add(p.record());
            } else {
                observations.noted(i, o);
            }
        }
    }

    private void route(int from, Output.Send send) {
        Message m = send.message();
        count("sent " + m.getClass().getSimpleName());
        floodWatch.sent(from, m, send.to());
        signatures.emit(from, m);
        List<Integer> destinations = SimNetwork.addresses(from, send.to(), membership, nodes.length,
                client -> clientIndex.get(SimClient.clientOf(client)));
        if (tamperers[from] == null) {
            for (int to : destinations) {
                network.send(now, from, to, m, 0);
            }
            return;
        }
        for (Tamperer.Addressed a : tamperers[from].tamper(m, destinations, nodes[from].view())) {
            signatures.emit(from, a.message());
            network.send(now, from, a.to(), a.message(), a.extraDelay());
        }
    }

    void count(String event) {
        events.merge(event, 1L, Long::sum);
    }

    // ------------------------------------------------------------------------------------------------ for clients

    void clientReads(SimClient c, int node, SimClient.Read read) {
        network.send(now, nodes.length + clientIndex.get(c.id()), node, read, 0);
    }

    void clientSends(SimClient c, int node, Request r) {
        network.send(now, nodes.length + clientIndex.get(c.id()), node, r, 0);
    }

    Signatures signatures() {
        return signatures;
    }

    /** The replayer was told, by f+1 executors alike, that its sequence ended. */
    void replayRefused() {
        count("replays refused: sequence ended");
    }

    Oracle oracle() {
        return oracle;
    }

    void trace(long at, String line) {
        if (trace != null) {
            trace.append("t=").append(at).append(' ').append(line).append('\n');
        }
    }

    /** A trace line, made only when the run is traced. */
    void trace(Supplier<String> line) {
        if (trace != null) {
            trace(now, line.get());
        }
    }
}
