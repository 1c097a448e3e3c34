package org.bftws.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import org.bftws.config.SecurityProfile;
import org.bftws.server.Cli;

/**
 * {@code ./bftws testbed [options]}: a whole replicated echo deployment on this machine. Writes a run directory
 * (home/testbed/RUN: replicas.xml with free loopback ports, one Axis2 repository and log per node), makes the
 * testbed's keys if absent, starts one {@link EchoReplica} JVM per node, waits until each prints {@code ready},
 * runs the {@link EchoClient} in this JVM, prints figures and each process's CPU per 1,000 requests, stops the
 * replicas (also on Ctrl-C, from a shutdown hook; only the processes it started, by their handles) and ends with
 * {@code echo: N ok, F failed, mean X ms, p99 Y ms, T req/s}. Exit status 0 only when every request succeeded.
 */
public final class Testbed {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);
    private static final String REPLICA_HEAP = "256m";

    private final TestbedOptions options;
    private final PrintStream out;
    private final List<ReplicaProcess> replicas = new CopyOnWriteArrayList<>();
    private volatile Path runDir;
    /** {@code --hostile}: the attack and its JVM, once started; else null. */
    private volatile HostileRun hostile;

    Testbed(TestbedOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    public static void main(String[] args) {
        Cli.exit(new TestbedCommand(), args);
    }

    /** Runs the testbed; returns the exit status. */
    int run() {
        runDir = options.home().resolve("testbed").resolve(
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT))
                        + "-" + ProcessHandle.current().pid()).toAbsolutePath().normalize();
        out.println("testbed: " + options.describe());
        out.println("run directory: " + runDir);
        Thread hook = new Thread(this::interrupted, "testbed-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        RunReport report = new RunReport(options, out);
        boolean started = false;
        try {
            Files.createDirectories(runDir);
            TestbedKeys keys = new TestbedKeys(options.home().resolve("testbed").resolve("keys"));
            if (options.security() != SecurityProfile.NONE || options.tls()) { // TLS presents the keygen certificates
                out.println(keys.ensure());
            }
            TestbedDeployment deployment = TestbedDeployment.write(options, runDir, keys);
            started = startReplicas(deployment, runDir);
            if (started && options.services() == 2) {
                SharedServicesRun clients = new SharedServicesRun(options, deployment, replicas, runDir);
                SharedServicesRun.Outcome outcome = clients.run();
                report.result(outcome.echo(), clients.cpu(), replicas);
                report.serviceResult("kv", outcome.kv());
                report.stateCheck("echo", outcome.echoState());
                report.stateCheck("kv", outcome.kvState());
                // echo's execution nodes executed the warm-up, the measured requests and the state check's appends
                report.replicaStats(replicas, deployment.executingNames(), options.warmup() + options.requests());
            } else if (started) {
                if (options.hostile() != null) {
                    hostile = new HostileRun(options.hostile(), options.clients(), deployment, replicas, runDir,
                            out);
                    hostile.launch();
                }
                ClientRun client = new ClientRun(options, deployment, replicas, runDir.resolve("client"), out,
                        hostile);
                EchoResult result = client.run();
                if (hostile != null) {
                    report.hostileCheck(hostile.report());
                }
                report.result(result, client.cpu(), replicas);
                client.stateCheck().ifPresent(report::stateCheck);
                report.replicaStats(replicas, deployment.executingNames(), options.warmup()
                        + (options.hostile() == null ? options.requests() : result.ok() + result.failed()));
                if (options.byzantine() != null) {
                    report.byzantineCheck(ByzantineCheck.of(options.byzantine(), replicas, client.voting()));
                }
            }
        } catch (IOException | RuntimeException e) {
            out.println("testbed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("testbed: interrupted");
        } finally {
            if (hostile != null) {
                hostile.close();
            }
            stopAll(replicas, out);
            removeHook(hook);
        }
        boolean clean = report.printSummary();
        if (clean && !report.warned() && !options.keep()) {
            deleteQuietly(runDir);
        } else {
            out.println("kept the run directory " + runDir + " (replicas.xml, <node>.log, repositories)");
        }
        // the final line is printed last, after any note on the run directory
        report.printFinalLine();
        return clean ? 0 : 1;
    }

    private boolean startReplicas(TestbedDeployment deployment, Path runDir)
            throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Path services = null;
        if ("kv".equals(options.service()) || options.services() == 2) {
            services = runDir.resolve("services");
            org.bftws.samples.kv.KvServiceArchive.writeTo(services);
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        for (TestbedDeployment.Node node : deployment.nodes()) {
            if (!names.add(node.name())) {
                continue; // --services 2: an agreement node is one JVM that orders both services
            }
            List<String> args = new ArrayList<>(List.of("--name", node.name(), "--conf", deployment.file().toString(),
                    "--run-dir", runDir.resolve(node.name()).toString()));
            // the kv archive goes to the nodes that execute kv; an agreement-only node deploys no archive (it orders
            // through the module's stand-in of the service) and a node without --services the echo sample
            boolean kvNode = services != null && node.role().executes()
                    && (node.service() == null || node.service().equals(TestbedDeployment.KV_SERVICE));
            if (kvNode) {
                args.addAll(List.of("--services", services.toString()));
            }
            args.addAll(List.of("--container", options.container()));
            if (options.byzantine() != null && node.id() == options.byzantine().testbedNode()) {
                args.addAll(List.of("--byzantine", options.byzantine().label()));
            }
            replicas.add(ReplicaProcess.start(node.name(), ReplicaProcess.javaCommand(node.name(), REPLICA_HEAP, args),
                    runDir.resolve(node.name() + ".log")));
        }
        StringBuilder ready = new StringBuilder();
        for (ReplicaProcess r : replicas) {
            try {
                int port = r.awaitReady(READY_TIMEOUT);
                ready.append(ready.length() == 0 ? "" : ", ").append(r.name()).append(" 127.0.0.1:").append(port)
                        .append(" (pid ").append(r.pid()).append(')');
            } catch (IOException e) {
                out.println("testbed: " + e.getMessage() + "; its last lines (" + r.log() + "):");
                r.tail().forEach(line -> out.println("  | " + line));
                return false;
            }
        }
        out.printf(Locale.ROOT, "replicas ready after %.1f s: %s%n", (System.nanoTime() - t0) / 1e9, ready);
        return true;
    }

    /** Stops every replica at once (end of input, then SIGTERM, then SIGKILL) and says how each ended. */
    static void stopAll(List<ReplicaProcess> replicas, PrintStream out) {
        List<Thread> stoppers = new ArrayList<>();
        List<String> outcomes = java.util.Collections.synchronizedList(new ArrayList<>());
        for (ReplicaProcess r : replicas) {
            Thread t = new Thread(() -> {
                try {
                    outcomes.add(r.name() + " " + r.stop(STOP_GRACE));
                } catch (InterruptedException e) {
                    r.crash();
                    outcomes.add(r.name() + " killed (interrupted while stopping)");
                }
            }, "stop-" + r.name());
            stoppers.add(t);
            t.start();
        }
        for (Thread t : stoppers) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (!outcomes.isEmpty()) {
            outcomes.sort(Comparator.naturalOrder());
            out.println("replicas: " + String.join(", ", outcomes));
        }
    }

    /** Ctrl-C or SIGTERM: the JVM is exiting; stop what this testbed started before it does. */
    private void interrupted() {
        out.println("testbed: interrupted; stopping the replicas");
        if (hostile != null) {
            hostile.close();
        }
        stopAll(replicas, out);
        out.println("kept the run directory " + runDir);
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or will run; it finds the replicas stopped
        }
    }

    static void deleteQuietly(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover run directory is harmless; it is git-ignored
        }
    }
}
