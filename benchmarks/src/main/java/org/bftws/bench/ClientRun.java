package org.bftws.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.rm.RmSource;
import org.bftws.core.ReplyPolicy;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.bftws.server.NodeRepository;

/**
 * The testbed's echo client in this JVM: an Axis2 client node (its own repository, conf/axis2.xml, the bftws
 * module told the run's replicas.xml and the client's name through {@code -Dbftws.replicasConfig} and
 * {@code -Dbftws.party}, as a replica is), the {@link EchoClient} against the group endpoint, CPU samples at the
 * measured phase's edges and, for {@code --crash}, a replica killed halfway.
 */
final class ClientRun {

    /** Generous per-request limit: a request that takes longer is a failure, not a slow sample. */
    private static final long REQUEST_TIMEOUT_MILLIS = 60_000;

    private final TestbedOptions options;
    private final TestbedDeployment deployment;
    private final List<ReplicaProcess> replicas;
    private final Path repositoryDir;
    private final PrintStream out;
    private final CpuSamples cpu = new CpuSamples();
    /** The client's Voter's counters (wrong replies it outvoted), once the run started. */
    private org.bftws.voting.VotingCounters voting;
    /** {@code --service kv}: the check of the replicas' states after the run. */
    private String stateCheck;
    /** {@code --hostile}: the attack timed from the measured phase's start, told of every answer; else null. */
    private final HostileRun hostile;

    ClientRun(TestbedOptions options, TestbedDeployment deployment, List<ReplicaProcess> replicas,
              Path repositoryDir, PrintStream out) {
        this(options, deployment, replicas, repositoryDir, out, null);
    }

    ClientRun(TestbedOptions options, TestbedDeployment deployment, List<ReplicaProcess> replicas,
              Path repositoryDir, PrintStream out, HostileRun hostile) {
        this.options = options;
        this.deployment = deployment;
        this.replicas = List.copyOf(replicas);
        this.repositoryDir = repositoryDir;
        this.out = out;
        this.hostile = hostile;
    }

    EchoResult run() throws IOException, InterruptedException {
        System.setProperty("bftws.replicasConfig", deployment.file().toString());
        System.setProperty("bftws.party", TestbedDeployment.CLIENT);
        Path repository = NodeRepository.forClient(repositoryDir);
        ConfigurationContext context = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repository.toString(), NodeRepository.axis2Xml(repository).toString());
        voting = org.bftws.axis2.node.BftwsNode.of(context).voting().counters();
        try {
            EchoClient.Settings settings = hostile == null
                    ? new EchoClient.Settings(deployment.clientEndpoint(), options.clients(), options.requests(),
                            options.warmup(), options.size(), REQUEST_TIMEOUT_MILLIS)
                    // calling for the attack's timeline; calls in flight at its end get HostileRun.SETTLE only
                    : new EchoClient.Settings(deployment.clientEndpoint(), options.clients(), options.requests(),
                            options.warmup(), options.size(), REQUEST_TIMEOUT_MILLIS, java.time.Duration.ZERO,
                            options.hostile().total(), HostileRun.SETTLE);
            if (!"kv".equals(options.service())) {
                EchoResult result = new EchoClient(context, settings).run(listener());
                if (options.readOnly()) {
                    org.bftws.voting.VotingCounters c =
                            org.bftws.axis2.node.BftwsNode.of(context).voting().counters();
                    out.println("reads (warm-up included): " + c.readsAccepted.get() + " accepted on 2f+1 identical "
                            + "replies without ordering, " + c.readsFallenBack.get() + " fallen back to ordered requests");
                }
                return result;
            }
            ServiceClient setup = new ServiceClient(context, null);
            Options o = new Options();
            o.setTo(new EndpointReference(deployment.clientEndpoint()));
            o.setTimeOutInMilliSeconds(REQUEST_TIMEOUT_MILLIS);
            o.setProperty(RmSource.SEQUENCE_KEY, "kv-setup");
            setup.setOptions(o);
            KvLoad load = new KvLoad(options.clients());
            KvLoad.open(setup);
            EchoResult result = new EchoClient(context, settings, load).run(listener());
            // every executor must return the same state, unless --crash stopped one: then 2f+1 of them
            stateCheck = load.check(setup, options.crash() == null ? ReplyPolicy.ALL : ReplyPolicy.STRONG_QUORUM,
                    result.clean());
            return result;
        } finally {
            context.terminate();
        }
    }

    /** The client's Voter's counters, or null when the client did not start. */
    org.bftws.voting.VotingCounters voting() {
        return voting;
    }

    CpuSamples cpu() {
        return cpu;
    }

    /** The kv sample's state check ({@code ok: ...} or {@code FAILED: ...}), when the run had one. */
    java.util.Optional<String> stateCheck() {
        return java.util.Optional.ofNullable(stateCheck);
    }

    private EchoClient.Listener listener() {
        int crashAt = Math.max(1, options.requests() / 2);
        return new EchoClient.Listener() {
            @Override
            public void measuring() {
                if (hostile != null) {
                    hostile.measuring(); // may wait for the hostile clients: the measured phase starts after
                }
                cpu.start(replicas);
            }

            @Override
            public void answered(long startNanos, long endNanos, boolean ok) {
                if (hostile != null) {
                    hostile.answered(endNanos, ok);
                }
            }

            @Override
            public void completed(int count) {
                if (options.crash() != null && count == crashAt) {
                    ReplicaProcess victim = victim();
                    victim.crash();
                    out.println("crashed " + victim.name() + " (the " + options.crash() + ", pid " + victim.pid()
                            + ") after " + count + " of " + options.requests() + " measured requests");
                }
            }

            @Override
            public void measured() {
                cpu.end(replicas);
                if (hostile != null) {
                    hostile.measured();
                }
            }
        };
    }

    /** The replica --crash names in the current view (the highest any replica reports; 0 if none answers). */
    private ReplicaProcess victim() {
        int view = 0;
        for (ReplicaProcess r : replicas) {
            try {
                view = Math.max(view, r.stats(java.time.Duration.ofSeconds(2))
                        .map(a -> ReplicaGroup.fields(a).getOrDefault("view", "0")).map(Integer::parseInt).orElse(0));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        String name = deployment.crashTarget(options.crash(), view).name();
        return replicas.stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
    }
}
