package org.bftws.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.bftws.axis2.rm.RmSource;
import org.bftws.core.ReplyPolicy;
import org.bftws.samples.echo.EchoService;
import org.bftws.server.NodeRepository;

/**
 * The clients of {@code ./bftws testbed --config III --services 2}: echo's and kv's loads at the same time, on one
 * agreement group, each on a client node of its own (party {@value TestbedDeployment#CLIENT}); then each service's
 * state check: kv's state read through its group from every execution node ({@link KvLoad#check}, policy ALL), and
 * {@value #STATE_APPENDS} appends to echo whose state (count and running digest) every echo execution node must hold
 * alike (echo requests leave no state).
 */
final class SharedServicesRun {

    static final int STATE_APPENDS = 20;
    private static final long REQUEST_TIMEOUT_MILLIS = 60_000;

    /** Each service's result and state check (a line starting with {@code ok} or {@code FAILED}). */
    record Outcome(EchoResult echo, EchoResult kv, String echoState, String kvState) {
    }

    private final TestbedOptions options;
    private final TestbedDeployment deployment;
    private final List<ReplicaProcess> replicas;
    private final Path dir;
    private final CpuSamples cpu = new CpuSamples();

    SharedServicesRun(TestbedOptions options, TestbedDeployment deployment, List<ReplicaProcess> replicas, Path dir) {
        this.options = options;
        this.deployment = deployment;
        this.replicas = List.copyOf(replicas);
        this.dir = dir;
    }

    CpuSamples cpu() {
        return cpu;
    }

    Outcome run() throws IOException, InterruptedException {
        System.setProperty("bftws.replicasConfig", deployment.file().toString());
        System.setProperty("bftws.party", TestbedDeployment.CLIENT);
        ConfigurationContext echoContext = context(dir.resolve("client-echo"));
        ConfigurationContext kvContext = context(dir.resolve("client-kv"));
        try {
            ServiceClient kvSetup = setupClient(kvContext, TestbedDeployment.KV_ENDPOINT, "kv-setup");
            KvLoad load = new KvLoad(options.clients());
            KvLoad.open(kvSetup);
            CompletableFuture<EchoResult> kv = CompletableFuture.supplyAsync(() -> {
                try {
                    return new EchoClient(kvContext, settings(TestbedDeployment.KV_ENDPOINT), load)
                            .run(new EchoClient.Listener() { });
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            });
            EchoResult echo = new EchoClient(echoContext, settings(TestbedDeployment.GROUP_ENDPOINT))
                    .run(new EchoClient.Listener() {
                        @Override
                        public void measuring() {
                            cpu.start(replicas);
                        }

                        @Override
                        public void measured() {
                            cpu.end(replicas);
                        }
                    });
            EchoResult kvResult;
            try {
                kvResult = kv.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("the kv client failed: " + e.getCause(), e.getCause());
            }
            String kvState = load.check(kvSetup, ReplyPolicy.ALL, kvResult.clean());
            String echoState = echoStateCheck(setupClient(echoContext, TestbedDeployment.GROUP_ENDPOINT, "echo-setup"));
            return new Outcome(echo, kvResult, echoState, kvState);
        } finally {
            echoContext.terminate();
            kvContext.terminate();
        }
    }

    private EchoClient.Settings settings(String endpoint) {
        return new EchoClient.Settings(endpoint, options.clients(), options.requests(), options.warmup(),
                options.size(), REQUEST_TIMEOUT_MILLIS);
    }

    private static ConfigurationContext context(Path repositoryDir) throws IOException {
        Path repository = NodeRepository.forClient(repositoryDir);
        return ConfigurationContextFactory.createConfigurationContextFromFileSystem(repository.toString(),
                NodeRepository.axis2Xml(repository).toString());
    }

    private static ServiceClient setupClient(ConfigurationContext context, String endpoint, String sequence)
            throws org.apache.axis2.AxisFault {
        ServiceClient client = new ServiceClient(context, null);
        Options o = new Options();
        o.setTo(new EndpointReference(endpoint));
        o.setTimeOutInMilliSeconds(REQUEST_TIMEOUT_MILLIS);
        o.setProperty(RmSource.SEQUENCE_KEY, sequence);
        client.setOptions(o);
        return client;
    }

    /**
     * {@value #STATE_APPENDS} appends through echo's group, then every echo execution node's state, waited for
     * (bounded: a call returns on f+1 replies, so the last node may still be executing): all must read the same.
     */
    private String echoStateCheck(ServiceClient client) throws InterruptedException {
        var f = org.apache.axiom.om.OMAbstractFactory.getOMFactory();
        var ns = f.createOMNamespace(EchoService.NS, "e");
        try {
            for (int i = 0; i < STATE_APPENDS; i++) {
                var append = f.createOMElement("append", ns);
                f.createOMElement("value", ns, append).setText("shared-" + i);
                client.getOptions().setAction(EchoService.NS + "/append");
                client.sendReceive(append).build();
            }
        } catch (org.apache.axis2.AxisFault e) {
            return "FAILED: the appends for the state check failed: " + e.getMessage();
        }
        List<ReplicaProcess> executors = replicas.stream()
                .filter(r -> deployment.executingNames().contains(r.name()) && !r.name().startsWith("kv-")).toList();
        String expected = "count=" + STATE_APPENDS + " ";
        List<String> states = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        for (ReplicaProcess r : executors) {
            Optional<String> state = r.ask("state", Duration.ofSeconds(5));
            while (System.nanoTime() < deadline && state.map(s -> !s.startsWith(expected)).orElse(true)) {
                Thread.sleep(100);
                state = r.ask("state", Duration.ofSeconds(5));
            }
            states.add(r.name() + " " + state.orElse("no answer"));
        }
        boolean same = states.stream().map(s -> s.substring(s.indexOf(' ') + 1)).distinct().count() == 1
                && states.get(0).contains(expected);
        return (same ? "ok: state identical on every execution node (" : "FAILED: states differ (")
                + String.join("; ", states) + ") after " + STATE_APPENDS + " appends";
    }
}
