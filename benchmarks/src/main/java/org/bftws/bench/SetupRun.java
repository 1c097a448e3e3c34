package org.bftws.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.bftws.server.NodeRepository;

/**
 * One setup of the suite while it runs: its node JVMs (started as the testbed starts them: the run's replicas.xml
 * from {@link TestbedDeployment}, one {@link ReplicaProcess} each, -Xmx256m) and the client's Axis2 context in this
 * JVM (bftws engaged, party {@value TestbedDeployment#CLIENT}). The nodes serve every point of the setup, so the JIT
 * warms up once per setup; each point still gets its own warm-up and its own WS-RM sequences.
 */
final class SetupRun implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final String NODE_HEAP = "256m";
    /** A request slower than this is a failure, not a slow sample. */
    private static final long REQUEST_TIMEOUT_MILLIS = 30_000;

    private final BenchSetup setup;
    private final TestbedDeployment deployment;
    private final List<ReplicaProcess> nodes;
    private final ConfigurationContext context;
    private final PrintStream out;

    private SetupRun(BenchSetup setup, TestbedDeployment deployment, List<ReplicaProcess> nodes,
                     ConfigurationContext context, PrintStream out) {
        this.setup = setup;
        this.deployment = deployment;
        this.nodes = nodes;
        this.context = context;
        this.out = out;
    }

    /**
     * Writes the setup's replicas.xml into {@code runDir}, starts its nodes into {@code started} (so the caller can
     * stop them whatever happens) and waits until each is ready; then builds the client.
     */
    static SetupRun start(BenchSetup setup, Path runDir, TestbedKeys keys, Path home,
                          CopyOnWriteArrayList<ReplicaProcess> started, PrintStream out)
            throws IOException, InterruptedException {
        boolean unreplicated = setup.kind() == BenchSetup.Kind.UNREPLICATED;
        TestbedOptions layout = new TestbedOptions(setup.configuration(), 1, 1, 1, setup.security(), 1,
                unreplicated, false, null, home, null, setup.kind() == BenchSetup.Kind.THREE_TIER ? 3 : 2);
        TestbedDeployment deployment = TestbedDeployment.write(layout, runDir, keys);
        long t0 = System.nanoTime();
        for (TestbedDeployment.Node node : deployment.nodes()) {
            List<String> args = List.of("--name", node.name(), "--conf", deployment.file().toString(),
                    "--run-dir", runDir.resolve(node.name()).toString());
            List<String> command = new ArrayList<>(ReplicaProcess.javaCommand(node.name(), NODE_HEAP, args));
            // a node that runs out of heap leaves a dump in the run directory (kept, as the point then fails)
            command.addAll(1, List.of("-XX:+HeapDumpOnOutOfMemoryError",
                    "-XX:HeapDumpPath=" + runDir.resolve(node.name() + ".hprof")));
            started.add(ReplicaProcess.start(node.name(), command, runDir.resolve(node.name() + ".log")));
        }
        for (ReplicaProcess r : started) {
            try {
                r.awaitReady(READY_TIMEOUT);
            } catch (IOException e) {
                throw new IOException(e.getMessage() + "; its last lines: " + String.join(" | ", r.tail()), e);
            }
        }
        out.printf(Locale.ROOT, "  %d node%s ready after %.1f s%n", started.size(), started.size() == 1 ? "" : "s",
                (System.nanoTime() - t0) / 1e9);
        System.setProperty("bftws.replicasConfig", deployment.file().toString());
        System.setProperty("bftws.party", TestbedDeployment.CLIENT);
        Path repository = NodeRepository.forClient(runDir.resolve("client"));
        ConfigurationContext context = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repository.toString(), NodeRepository.axis2Xml(repository).toString());
        return new SetupRun(setup, deployment, List.copyOf(started), context, out);
    }

    /** Unmeasured requests after start-up: the JIT compiles the request path of every node and of the client. */
    void warmUp(int requests, int clients, int size, Duration cap) throws InterruptedException {
        if (requests < clients) {
            return;
        }
        long t0 = System.nanoTime();
        EchoResult r = new EchoClient(context, new EchoClient.Settings(deployment.clientEndpoint(), clients,
                0, requests, size, REQUEST_TIMEOUT_MILLIS, cap, Duration.ZERO)).run(new EchoClient.Listener() { });
        double s = (System.nanoTime() - t0) / 1e9;
        out.printf(Locale.ROOT, "  setup warm-up: %d clients, %d elements, %.1f s%s%n", clients, size, s,
                (r.warmupFailed() == 0 ? "" : ", " + r.warmupFailed() + " requests failed")
                        + (r.notes().isEmpty() ? "" : "; " + String.join("; ", r.notes())));
    }

    /** Measures one point: its own warm-up, then the samples, with CPU and service counters at the window's edges. */
    PointResult measure(BenchPoint point, BenchOptions options, Progress progress) throws InterruptedException {
        CpuSamples cpu = new CpuSamples();
        ServiceRate service = new ServiceRate(deployment.executingNames(), setup.f());
        EchoClient.Settings settings = new EchoClient.Settings(deployment.clientEndpoint(), point.clients(),
                options.samples(), Math.max(options.warmup(), point.clients()), point.size(), REQUEST_TIMEOUT_MILLIS,
                options.warmupCap(), options.measureCap());
        EchoResult r = new EchoClient(context, settings).run(new EchoClient.Listener() {
            @Override
            public void measuring() {
                service.start(nodes); // asks the nodes first: their answer is not the point's CPU
                cpu.start(nodes);
                progress.measuring(options.samples());
            }

            @Override
            public void completed(int count) {
                progress.completed(count);
            }

            @Override
            public void measured() {
                cpu.end(nodes);
                service.end(nodes);
            }
        });
        int issued = r.ok() + r.failed();
        List<String> processes = new ArrayList<>(nodes.stream().map(ReplicaProcess::name).toList());
        processes.add(CpuSamples.CLIENT);
        java.util.Map<String, Double> perThousand = new java.util.LinkedHashMap<>();
        for (String p : processes) {
            perThousand.put(p, cpu.perThousand(p, issued).orElse(Double.NaN));
        }
        double wall = r.wallNanos() / 1e9;
        List<String> problems = new ArrayList<>();
        r.failures().forEach((reason, n) -> problems.add(n + "x " + reason));
        problems.addAll(r.notes());
        if (r.warmupFailed() > 0) {
            problems.add(r.warmupFailed() + " warm-up requests failed");
        }
        String dead = deadNodes();
        if (!dead.isEmpty()) {
            problems.add("ended during the point: " + dead);
        }
        boolean ok = r.clean() && r.ok() > 0 && dead.isEmpty();
        return new PointResult(setup, point, ok ? PointResult.OK : PointResult.FAILED, options.samples(), r.ok(),
                r.failed(), r.warmupFailed(), r.latency(), r.throughput(), service.rate(wall), wall, perThousand,
                cpu.projectedThroughput(nodes, issued).orElse(Double.NaN), service.viewChanges(), Load.now(),
                String.join("; ", problems));
    }

    /** Names of nodes that are no longer running; empty when all are. */
    String deadNodes() {
        return String.join(", ", nodes.stream().filter(r -> !r.alive()).map(ReplicaProcess::name).toList());
    }

    Set<String> executing() {
        return deployment.executingNames();
    }

    /** Stops the client context and the nodes (end of input, SIGTERM, SIGKILL); prints how each node ended. */
    @Override
    public void close() {
        try {
            context.terminate();
        } catch (AxisFault | RuntimeException e) {
            out.println("  client context did not stop cleanly: " + e.getMessage());
        }
        Testbed.stopAll(nodes, out);
    }
}
