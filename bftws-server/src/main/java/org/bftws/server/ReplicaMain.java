package org.bftws.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.apache.axis2.AxisFault;
import org.bftws.axis2.monitoring.HttpAdmissionCounters;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.config.ConfigException;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.axis2.security.SecurityRuntime;

/**
 * {@code ./bftws replica (--id I | --name NAME) [--conf conf/replicas.xml] ...}: runs one node of a deployment's
 * replicas.xml in this JVM, so the testbed's four replicas and four replicas on four hosts start the same way.
 * The node gets its own Axis2 repository (axis2.xml, addressing.mar, the service archives; the bftws module comes from
 * the classpath, {@link NodeRepository}), the bftws
 * module reads replicas.xml and this node's name from {@code -Dbftws.replicasConfig} / {@code -Dbftws.party}, and
 * it listens on its endpoints' port, with Axis2's own HTTP server or, with {@code --container jetty}, in AxisServlet
 * in an embedded Jetty ({@link NodeContainer}). Prints {@code ready NAME PORT} once it serves. Exit codes: 0 stopped, 1 it
 * could not start (the message says why), 2 bad command line. A launcher may bring a {@link SampleService}, deployed
 * when {@code --services} is not given (the testbed's echo sample); the product's own main brings none.
 */
public final class ReplicaMain {

    private ReplicaMain() {
    }

    public static void main(String[] args) {
        launch(args, null);
    }

    /** Runs the command line {@code args} ({@link ReplicaCommand}) with {@code sample} (or null) and exits. */
    public static void launch(String[] args, SampleService sample) {
        Cli.exit(new ReplicaCommand(sample), args);
    }

    /** Runs the node until it is told to stop; returns the exit code. */
    static int run(ReplicaOptions options, SampleService sample, PrintStream out, PrintStream err) {
        List<ReplicaNode> targets;
        try {
            targets = ReplicaNode.selectAll(options);
        } catch (ConfigException e) {
            e.problems().forEach(p -> err.println("replica: " + p));
            return 1;
        } catch (IllegalArgumentException e) {
            err.println("replica: " + e.getMessage());
            return 1;
        }
        ReplicaNode first = targets.get(0);
        String name = first.node().name();
        for (ReplicaNode target : targets) {
            String refused = sample == null ? null : sample.refusal(target.group(), target.node());
            if (refused != null) {
                err.println("replica: " + refused);
                return Cli.USAGE_ERROR;
            }
        }
        targets.stream().map(ReplicaNode::note).filter(java.util.Objects::nonNull).distinct()
                .forEach(note -> err.println("replica: note: " + note));
        if (options.services() != null && targets.stream().noneMatch(t -> t.node().role().executes())) {
            err.println("replica: note: " + name + " orders " + String.join(" and ", targets.stream()
                    .map(t -> t.group().service()).toList()) + " without executing it: the archives of --services "
                    + options.services() + " are not deployed");
        }
        // How the bftws module (NodeSettings, SecurityRuntime) learns the deployment and who this node is.
        System.setProperty("bftws.replicasConfig", first.configFile().toAbsolutePath().toString());
        System.setProperty("bftws.party", name);
        boolean ordersSeveral = ReplicasConfigReader.read(first.configFile(), org.bftws.config.KeyFileCheck.none())
                .groupsOfNode(name).size() > 1;
        if (ordersSeveral && targets.size() == 1) {
            // an agreement node of several services (<agreementGroup>) started for one of them (--group)
            System.setProperty("bftws.service", first.group().service());
        }
        Path runDir = options.runDir() != null ? options.runDir() : Cli.home().resolve("replica")
                .resolve(ordersSeveral && targets.size() == 1 ? name + "-" + first.group().service() : name);
        List<NodeHttpServer> servers = new ArrayList<>();
        NodeContainer container = options.container();
        try {
            for (ReplicaNode target : targets) {
                servers.add(start(target, targets.size() > 1, runDir, options, sample, container));
            }
        } catch (AxisFault e) {
            err.println("replica: " + name + " failed to start: " + rootMessage(e));
            servers.forEach(s -> closeQuietly(s, name, err));
            return 1;
        } catch (IOException | RuntimeException e) {
            err.println("replica: " + name + " failed to start: " + rootMessage(e));
            servers.forEach(s -> closeQuietly(s, name, err));
            return 1;
        }
        for (int i = 0; i < servers.size(); i++) {
            NodeHttpServer server = servers.get(i);
            String notReady = moduleProblem(server);
            if (notReady == null) {
                notReady = serviceProblem(server, targets.get(i), targets.size() > 1);
            }
            if (notReady != null) {
                err.println("replica: " + name + " failed to start: " + notReady);
                servers.forEach(s -> closeQuietly(s, name, err));
                return 1;
            }
        }
        Thread hook = new Thread(() -> servers.forEach(s -> closeQuietly(s, name, err)), "replica-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println("ready " + name + " " + servers.get(0).address().getPort());
        out.flush();
        if (options.ignoreStdin()) {
            awaitForever();
        } else {
            serveStdin(servers, name, sample == null ? Map.of() : sample.queries(), out, err);
        }
        servers.forEach(s -> closeQuietly(s, name, err));
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is already exiting; the hook has closed the node or will find it closed
        }
        out.println("stopped " + name);
        out.flush();
        return 0;
    }

    /**
     * Writes the repository of one of this node's Axis2 nodes and starts it. With {@code several} (an agreement
     * node ordering each service of its agreement group in this JVM) each service's node gets a repository of its
     * own, whose axis2.xml names the service, and no archives: an agreement-only node does not run the service.
     * Nor does one of a single group (Configuration II's f ordering nodes, III's agreement nodes): the module deploys
     * a stand-in of the service's name there, which takes the requests into ordering, so an archive of that service
     * would be a second service of the same name, which Axis2 refuses to deploy.
     */
    private static NodeHttpServer start(ReplicaNode target, boolean several, Path runDir, ReplicaOptions options,
                                        SampleService sample, NodeContainer container) throws IOException {
        if (several) {
            Path repository = NodeRepository.forNode(runDir.resolve("repository-" + target.group().service()),
                    container, target.port());
            NodeRepository.serving(repository, target.group().service());
            return startIn(repository, target, sample, container);
        }
        if (!target.node().role().executes()) {
            return startIn(NodeRepository.forNode(runDir.resolve("repository"), container, target.port()), target,
                    sample, container);
        }
        Path repository = options.services() != null
                ? NodeRepository.forNode(runDir.resolve("repository"), options.services(), container, target.port())
                : NodeRepository.forNode(runDir.resolve("repository"), sample, container, target.port());
        return startIn(repository, target, sample, container);
    }

    /** Starts the node's HTTP server on {@code repository}; a sample configures the Axis2 node before the module. */
    private static NodeHttpServer startIn(Path repository, ReplicaNode target, SampleService sample,
                                          NodeContainer container) throws IOException {
        return sample == null ? container.start(repository, target.bind(), target.port())
                : container.start(repository, target.bind(), target.port(),
                        axis -> sample.configure(axis, target.group(), target.node()));
    }

    /**
     * 'stats' prints the node's counters, 'measurements' the replica's recovery timings, a sample service's queries
     * (the echo sample's 'state' and 'entries') that service's state; 'stop' or the end of input stops the node.
     * An agreement node ordering several services answers 'stats' and 'measurements' in one line, one part per
     * service ({@code stats NAME EchoService: delivered=... | KvService: delivered=...}).
     */
    private static void serveStdin(List<NodeHttpServer> servers, String name, Map<String, SampleService.StateQuery> queries,
                                   PrintStream out, PrintStream err) {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        List<String> commands = new ArrayList<>(List.of("stats", "measurements"));
        commands.addAll(queries.keySet());
        commands.add("stop");
        try {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String command = line.trim();
                if (command.equals("stop")) {
                    return;
                }
                if (command.equals("stats")) {
                    out.println(perService(servers, "stats", name, ReplicaMain::stats));
                } else if (command.equals("measurements")) {
                    out.println(perService(servers, "measurements", name, ReplicaMain::measurements));
                } else if (queries.containsKey(command)) {
                    out.println(query(command, queries.get(command), servers.get(0), name));
                } else if (!command.isEmpty()) {
                    err.println("replica: unknown command '" + command + "' (" + String.join(", ", commands) + ")");
                }
                out.flush();
            }
            err.println("replica: standard input closed: stopping " + name
                    + " (run with --ignore-stdin to keep a detached replica running)");
        } catch (IOException e) {
            err.println("replica: reading standard input failed (" + e.getMessage() + "): stopping " + name);
        }
    }

    /** {@code answer}'s line for the one server, or {@code COMMAND NAME S1: ... | S2: ...} for several. */
    private static String perService(List<NodeHttpServer> servers, String command, String name,
                                     java.util.function.BiFunction<NodeHttpServer, String, String> answer) {
        if (servers.size() == 1) {
            return answer.apply(servers.get(0), name);
        }
        String prefix = command + " " + name + " ";
        List<String> parts = new ArrayList<>();
        for (NodeHttpServer server : servers) {
            String line = answer.apply(server, name);
            String service = SecurityRuntime.of(server.context()).ownGroup().map(g -> g.service()).orElse("?");
            parts.add(service + ": " + (line.startsWith(prefix) ? line.substring(prefix.length()) : line));
        }
        return prefix + String.join(" | ", parts);
    }

    /**
     * One line: {@code stats NAME delivered=D accepted=A refused=R security-refusals=S retransmissions=T
     * hold-timeouts=H connections-refused-queue-full=Q stale-connections-dropped=O connections-refused-tls=L}
     * (H: exchanges answered "retry later" because what they waited for took longer than the hold timeout; 0 in a
     * fault-free run; Q, O, L: connections the HTTP server closed before a request on them was read, because the
     * queue for a worker was full, because they waited for one longer than their client does, or because their TLS
     * handshake failed: docs/operations.md, "Connections waiting for a worker"), with {@code <tls>} the TLS
     * handshakes and refused certificates, and for a replica of a BFT group its view, stable checkpoint and ordering
     * counters; delivered counts executed requests.
     * A replica that executes nothing (its service could not install or give a state) says so first, with the
     * sequence number it stopped at: {@code not-executing-since=N}.
     */
    static String stats(NodeHttpServer server, String name) {
        BftwsNode node = BftwsNode.of(server.context());
        long securityRefusals = SecurityRuntime.of(server.context()).refusals().total();
        org.bftws.axis2.ordering.BftReplica replica = node.replica();
        long delivered = replica != null ? replica.invoker().executedRequests() : node.destination().deliveredCount();
        org.bftws.ordering.TotalOrderManager.Halt halted = replica == null ? null : replica.manager().halted();
        String ordering = replica == null ? "" : (halted == null ? "" : " not-executing-since=" + halted.seq())
                + " view=" + replica.manager().view() + " stable="
                + replica.manager().stableCheckpoint() + " " + replica.counters().entrySet().stream()
                        .map(e -> e.getKey().replace(' ', '-') + "=" + e.getValue())
                        .collect(java.util.stream.Collectors.joining(" "));
        return "stats " + name + " delivered=" + delivered
                + " accepted=" + node.counters().accepted.get()
                + " refused=" + node.counters().refused.get()
                + " security-refusals=" + securityRefusals
                + " retransmissions=" + node.counters().retransmissions.get()
                + " hold-timeouts=" + node.counters().holdTimeouts.get() + connections(server) + tls(server)
                + ordering;
    }

    /** What the node's HTTP server refused before reading a request (a constant 503, a close unread). */
    private static String connections(NodeHttpServer server) {
        HttpAdmissionCounters c = HttpAdmissionCounters.of(server.context());
        return " connections-refused-queue-full=" + c.refusedQueueFull.get() + " stale-connections-dropped="
                + c.staleDropped.get() + " connections-refused-tls=" + c.tlsFailed.get();
    }

    /** With {@code <tls>}: {@code tls-handshakes=N tls-refusals=M} (a handshake per connection, never per request). */
    private static String tls(NodeHttpServer server) {
        return SecurityRuntime.of(server.context()).tls().map(t -> " tls-handshakes=" + t.handshakes()
                + " tls-refusals=" + t.refusals()).orElse("");
    }

    /**
     * {@code measurements NAME view=V stable=S executed=E TIMINGS} (see
     * {@link org.bftws.metrics.Measurements#describe()}), or {@code measurements NAME unavailable: WHY}.
     */
    static String measurements(NodeHttpServer server, String name) {
        try {
            org.bftws.axis2.ordering.BftReplica replica = BftwsNode.of(server.context()).replica();
            if (replica == null) {
                return "measurements " + name + " unavailable: not a replica of a BFT group";
            }
            return "measurements " + name + " view=" + replica.manager().view() + " stable="
                    + replica.manager().stableCheckpoint() + " executed=" + replica.manager().lastExecuted() + " "
                    + replica.measurements().describe();
        } catch (RuntimeException e) {
            return "measurements " + name + " unavailable: " + rootMessage(e);
        }
    }

    /** A sample service's answer, or {@code COMMAND NAME unavailable: WHY}. */
    private static String query(String command, SampleService.StateQuery query, NodeHttpServer server, String name) {
        try {
            return query.answer(name, server.context());
        } catch (AxisFault | RuntimeException e) {
            return command + " " + name + " unavailable: " + rootMessage(e);
        }
    }

    /**
     * Axis2 catches a module's init failure, logs it at INFO and drops the module, and the node would then fail every
     * message; refuse to start instead. The security runtime is built now too, so a node without usable keys stops
     * here rather than at its first message.
     */
    private static String moduleProblem(NodeHttpServer server) {
        try {
            BftwsNode.of(server.context());
            SecurityRuntime.of(server.context());
            return null;
        } catch (RuntimeException e) {
            var faulty = server.context().getAxisConfiguration().getFaultyModules();
            return e.getMessage() + (faulty.isEmpty() ? "" : " " + faulty);
        }
    }

    /**
     * Axis2 logs a service archive it cannot deploy and goes on without it; a replica without its group's service
     * would order requests it can never execute. So: every archive must have deployed, and a node that executes its
     * group's service must have it. One line naming the archive or service and the cause, or null when all is well.
     */
    static String serviceProblem(NodeHttpServer server, ReplicaNode target, boolean agreementOnly) {
        org.apache.axis2.engine.AxisConfiguration axis = server.context().getAxisConfiguration();
        java.util.Map<String, String> faulty = new java.util.TreeMap<>(axis.getFaultyServices());
        if (!faulty.isEmpty()) {
            return faulty.entrySet().stream()
                    .map(f -> "service archive " + Path.of(f.getKey()).getFileName() + " did not deploy: "
                            + firstLine(f.getValue()))
                    .collect(java.util.stream.Collectors.joining("; "));
        }
        String service = target.group().service();
        if (agreementOnly || !target.node().role().executes()) {
            return null;
        }
        try {
            if (axis.getService(service) == null) {
                return "the replicated service " + service + " is not deployed: no archive in the node's services/"
                        + " has <service name=\"" + service + "\">";
            }
        } catch (AxisFault e) {
            return "the replicated service " + service + " is not available: " + rootMessage(e);
        }
        return null;
    }

    /**
     * The cause in Axis2's report of a faulty archive ("Error:", then the exception's stack trace): the exception's
     * message, without its class name.
     */
    private static String firstLine(String report) {
        for (String line : (report == null ? "" : report).strip().split("\\R")) {
            String l = line.strip();
            if (l.isEmpty() || l.equals("Error:")) {
                continue;
            }
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^[\\w.$]+(?:Exception|Error|Fault): (.+)$").matcher(l);
            return m.matches() ? m.group(1) : l;
        }
        return "no reason given";
    }

    private static void awaitForever() {
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(NodeHttpServer server, String name, PrintStream err) {
        try {
            server.close();
        } catch (AxisFault | RuntimeException e) {
            err.println("replica: " + name + " did not stop cleanly: " + e.getMessage());
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String top = e.getMessage();
        String root = t.getMessage() == null ? t.toString() : t.getMessage();
        if (top == null) {
            return root;
        }
        return top.contains(root) ? top : top + " (" + root + ")";
    }
}
