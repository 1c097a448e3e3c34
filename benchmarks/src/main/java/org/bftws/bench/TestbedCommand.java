package org.bftws.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.bftws.bench.byzantine.ByzantineMode;
import org.bftws.bench.hostile.HostileMode;
import org.bftws.config.Configuration;
import org.bftws.config.ReplicaChannelKind;
import org.bftws.config.SecurityProfile;
import org.bftws.server.Cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./bftws testbed}: the command line of {@link Testbed}, read into {@link TestbedOptions}. */
@Command(name = "testbed", separator = " ", sortOptions = false, usageHelpWidth = 120,
        description = {
            "Starts the replicas of a generated replicas.xml as JVMs on free loopback ports of this machine, runs the "
                    + "echo client against them, prints figures and stops them; the last line is "
                    + "'echo: N ok, F failed, mean X ms, p99 Y ms, T req/s'.",
            "Exit status: 0 every request succeeded, 1 anything failed, 2 bad command line."})
final class TestbedCommand implements Callable<Integer> {

    /** Axis2 logs every deployment step at INFO through java.util.logging; the console shows warnings only. */
    private static final Logger AXIS2_LOG = Logger.getLogger("org.apache.axis2");
    /** With --byzantine: checkpoints often enough that a short run has old messages to replay and digests to lie in. */
    static final String BYZANTINE_PROTOCOL = "checkpointInterval=16,watermarkWindow=64";
    /** What --tentative adds to the group's {@code <protocol>} element. */
    static final String TENTATIVE_PROTOCOL = "tentativeExecution=true";

    @Spec
    CommandSpec spec;

    @Mixin
    Cli.Help help;

    @Option(names = "--config", paramLabel = "I|II|III", defaultValue = "I",
            description = "replication configuration (default I: 4 replicas, f=1)")
    String config;

    @Option(names = "--clients", paramLabel = "C", defaultValue = "1",
            description = "concurrent client threads, each its own WS-RM sequence (default ${DEFAULT-VALUE})")
    int clients;

    @Option(names = "--requests", paramLabel = "N", defaultValue = "1000",
            description = "measured requests in total (default ${DEFAULT-VALUE})")
    int requests;

    @Option(names = "--warmup", paramLabel = "W", defaultValue = "500",
            description = "unmeasured warm-up requests in total, at least one per client (default ${DEFAULT-VALUE})")
    int warmup;

    @Option(names = "--size", paramLabel = "K", defaultValue = "10",
            description = "XML elements per echo request (default ${DEFAULT-VALUE})")
    int size;

    @Option(names = "--security", paramLabel = "mac|wssec|none", defaultValue = "mac",
            description = "the group's message authentication profile (default ${DEFAULT-VALUE})")
    String security;

    @Option(names = "--unreplicated", description = "one node, WS-RM only: the baseline without replication")
    boolean unreplicated;

    @Option(names = "--crash", paramLabel = "primary|backup|echo-primary|echo-backup",
            description = "kill that replica halfway through the measured requests (with --tiers 3: primary and backup"
                    + " of the relay group, echo-primary and echo-backup of the echo group behind it)")
    String crash;

    @Option(names = "--tiers", paramLabel = "2|3", defaultValue = "2",
            description = "2 (default): client -> 4 echo replicas; 3: client -> 4 echo relay replicas -> 4 echo "
                    + "replicas, the relay answering with the backend's reply (Configuration I)")
    String tiers;

    @Option(names = "--channel", paramLabel = "binary|soap", defaultValue = "binary",
            description = "how the replicas exchange PBFT messages: binary frames over TCP (default) or SOAP over "
                    + "WS-RM to each replica's control service (the paper's design)")
    String channel;

    @Option(names = "--service", paramLabel = "echo|kv", defaultValue = "echo",
            description = "the replicated sample: echo (default) or kv, the key-value sample with conflicting transfers "
                    + "and compare-and-sets on shared accounts, whose replicas' states are compared at the end "
                    + "(docs/replicating-a-service.md)")
    String service;

    @Option(names = "--services", paramLabel = "1|2", defaultValue = "1",
            description = "2: Configuration III shared by two services (with --config III): one set of 4 agreement "
                    + "nodes orders echo and kv, each with its own 3 execution nodes and clients; per-service results "
                    + "and state checks (docs/configuration.md, <agreementGroup>)")
    String services;

    @Option(names = "--tls", paramLabel = "on|off", defaultValue = "on",
            description = "on (default): replicas.xml has <tls/>, so the replicas' links run TLS 1.3 with both ends "
                    + "presenting their certificate; off: plain TCP and HTTP, readable by anybody on the path (the "
                    + "paper's setup, and the baseline for what TLS costs)")
    String tls;

    @Option(names = "--container", paramLabel = "simple|jetty", defaultValue = "simple",
            description = "the HTTP server of each replica: simple (default), Axis2's SimpleHTTPServer; jetty, Axis2's "
                    + "AxisServlet in an embedded Jetty 9.4 servlet container (docs/deployment.md)")
    String container;

    @Option(names = "--byzantine", paramLabel = "MODE",
            description = "run one replica as a Byzantine one (testing; replicas.xml allows it for that node only): "
                    + "wrong-replies, replay, bad-checkpoint, flood on the backup replica3; equivocate, silent-primary "
                    + "on the view-0 primary replica0. Checkpoints every 16 unless --protocol says otherwise; the run "
                    + "then checks the correct replicas' states and that they counted the lie "
                    + "(docs/byzantine-testing.md)")
    String byzantine;

    @Option(names = "--read-only", description = "declare echo read-only in the run's replicas.xml: the client sends "
            + "each echo unordered to every replica and accepts 2f+1 identical replies, else sends it ordered "
            + "(docs/protocol.md, \"Read-only requests\")")
    boolean readOnly;

    @Option(names = "--tentative", description = "PBFT's tentative execution (tentativeExecution=\"true\" in the run's "
            + "replicas.xml): replicas execute a batch once it is prepared and reply tentatively, the client accepts "
            + "2f+1 matching tentative replies; one message delay less per call. Configurations I and II only "
            + "(docs/protocol.md, \"Tentative execution\")")
    boolean tentative;

    @Option(names = "--hostile", paramLabel = "MODE[,MODE..]",
            description = "a hostile client (a second client party with keys of its own) attacks the group while the "
                    + "echo client calls for --hostile-start, then --hostile-duration + --hostile-after seconds per "
                    + "MODE (--requests is not used): one attack per MODE, one after another, each by a JVM of its "
                    + "own (valid,invalid compares an attack with its control in one run); every 5 s the run prints "
                    + "honest calls/s, requests executed/s and view of each replica, the replicas' CPU; then per "
                    + "attack a summary, the hostile requests against what the replicas executed and the refusals "
                    + "each replica counted, and a check (no view change, an honest answer within 5 s after the "
                    + "attack, both but said for the control, what the replicas executed and refused accounts for the "
                    + "hostile requests). MODE: valid (the control: requests left valid), invalid (every mac:Entry "
                    + "spoilt), primary-only (valid at replica0 only), backups-only (valid at the backups only), "
                    + "no-header (no mac:RequestAuthenticator), garbage (bodies that are not SOAP or not XML), "
                    + "create-flood (a new sequence per message). Configuration I, echo, 2 tiers; the modes that spoil "
                    + "authenticators need --security mac (docs/byzantine-testing.md, \"Hostile clients\")")
    String hostile;

    @Option(names = "--hostile-threads", paramLabel = "N", defaultValue = "16",
            description = "the hostile client's threads, each calling without pause (default ${DEFAULT-VALUE})")
    int hostileThreads;

    @Option(names = "--hostile-timeout", paramLabel = "D", defaultValue = "300ms",
            description = "the hostile client's clientTimeout: how long one attempt waits for a replica's answer, "
                    + "e.g. 300ms or 3s (default ${DEFAULT-VALUE}; replicas.xml's default is 3s)")
    String hostileTimeout;

    @Option(names = "--hostile-retransmit", paramLabel = "D", defaultValue = "100ms",
            description = "the hostile client's retransmissionInterval (default ${DEFAULT-VALUE}; replicas.xml's "
                    + "default is 500ms)")
    String hostileRetransmit;

    @Option(names = "--hostile-retransmissions", paramLabel = "K", defaultValue = "1",
            description = "the hostile client's maxRetransmissions (default ${DEFAULT-VALUE}; replicas.xml's default "
                    + "is 8)")
    int hostileRetransmissions;

    @Option(names = "--hostile-rate", paramLabel = "R", defaultValue = "0",
            description = "at most R hostile calls per second over all its threads; 0: as fast as the threads go "
                    + "(default ${DEFAULT-VALUE})")
    double hostileRate;

    @Option(names = "--hostile-start", paramLabel = "S", defaultValue = "20",
            description = "the (first) attack starts S seconds into the measured phase (default ${DEFAULT-VALUE})")
    int hostileStart;

    @Option(names = "--hostile-duration", paramLabel = "S", defaultValue = "30",
            description = "each attack lasts S seconds (default ${DEFAULT-VALUE})")
    int hostileDuration;

    @Option(names = "--hostile-after", paramLabel = "S", defaultValue = "30",
            description = "the echo client goes on for S seconds after each attack, before the next one starts "
                    + "(default ${DEFAULT-VALUE})")
    int hostileAfter;

    @Option(names = "--keep", description = "keep the run directory (logs, replicas.xml); kept anyway after a failure")
    boolean keep;

    @Option(names = "--protocol", paramLabel = "N=V,..",
            description = "attributes of the group's <protocol> element in replicas.xml, e.g. "
                    + "batchMaxDelay=20ms,maxBatchesInFlight=2 (docs/configuration.md)")
    String protocol;

    @Option(names = "--home", paramLabel = "DIR",
            description = "the state directory: run directories and keys under DIR/testbed (default the checkout's "
                    + ".bftws)")
    Path home;

    /** The options, checked beyond what picocli checks. */
    TestbedOptions options() {
        Configuration configuration = Configuration.valueOf(Cli.choice(spec, "--config", config, "I", "II", "III"));
        int tierCount = Integer.parseInt(Cli.choice(spec, "--tiers", tiers, "2", "3"));
        Cli.range(spec, "--clients", clients, 1, 256);
        Cli.range(spec, "--requests", requests, 1, 10_000_000);
        Cli.range(spec, "--warmup", warmup, 0, 10_000_000);
        Cli.range(spec, "--size", size, 0, 100_000);
        SecurityProfile profile = SecurityProfile.valueOf(
                Cli.choice(spec, "--security", security, "mac", "wssec", "none").toUpperCase(Locale.ROOT));
        String crashed = crash == null ? null
                : Cli.choice(spec, "--crash", crash, "primary", "backup", "echo-primary", "echo-backup");
        if (crashed != null && crashed.startsWith("echo-") && tierCount != 3) {
            throw Cli.refuse(spec, "--crash " + crashed + " kills a replica of the echo group behind the relays: it needs"
                    + " --tiers 3");
        }
        ReplicaChannelKind kind = ReplicaChannelKind.valueOf(
                Cli.choice(spec, "--channel", channel, "binary", "soap").toUpperCase(Locale.ROOT));
        if (tentative && (configuration == Configuration.III || unreplicated || tierCount == 3)) {
            throw Cli.refuse(spec, "--tentative runs PBFT's tentative execution, which needs every executor to take part"
                    + " in ordering and no nested calls (a nested call cannot be undone): it takes neither --config III,"
                    + " --tiers 3 nor --unreplicated");
        }
        if (tentative && protocol != null && protocol.matches("(?s).*\\btentativeExecution\\s*=.*")) {
            throw Cli.refuse(spec, "--tentative sets tentativeExecution itself: leave it out of --protocol");
        }
        String protocolElement;
        try {
            protocolElement = protocol == null ? null : TestbedOptions.protocolElement(protocol);
        } catch (IllegalArgumentException e) {
            throw Cli.refuse(spec, e.getMessage());
        }
        if (unreplicated && (configuration != Configuration.I || crashed != null)) {
            throw Cli.refuse(spec, "--unreplicated runs one node: it takes neither --config II/III nor --crash");
        }
        if (tierCount == 3 && (unreplicated || configuration != Configuration.I || profile == SecurityProfile.NONE)) {
            throw Cli.refuse(spec, "--tiers 3 runs two Configuration I groups whose nested requests are told apart by"
                    + " their signatures: it takes neither --unreplicated, --config II/III nor --security none");
        }
        ByzantineMode lie = byzantine == null ? null : ByzantineMode.of(byzantine).orElseThrow(() -> Cli.refuse(spec,
                "--byzantine must be one of " + ByzantineMode.labels().replace("|", ", ") + ", not '" + byzantine
                        + "'"));
        if (lie != null && (unreplicated || configuration != Configuration.I || tierCount == 3 || crashed != null
                || "kv".equals(service))) {
            throw Cli.refuse(spec, "--byzantine runs one lying replica in the echo group of Configuration I (f=1): it "
                    + "takes neither --unreplicated, --config II/III, --tiers 3, --crash nor --service kv");
        }
        if (lie != null && protocolElement == null) {
            protocolElement = TestbedOptions.protocolElement(BYZANTINE_PROTOCOL);
        }
        if (tentative) {
            String others = protocol != null ? protocol : lie != null ? BYZANTINE_PROTOCOL : null;
            protocolElement = TestbedOptions.protocolElement(others == null ? TENTATIVE_PROTOCOL
                    : others + "," + TENTATIVE_PROTOCOL);
        }
        String sample = Cli.choice(spec, "--service", service, "echo", "kv");
        if (sample.equals("kv") && tierCount == 3) {
            throw Cli.refuse(spec, "--service kv runs one group: it does not take --tiers 3");
        }
        int serviceCount = Integer.parseInt(Cli.choice(spec, "--services", services, "1", "2"));
        if (serviceCount == 2 && (configuration != Configuration.III || unreplicated || tierCount == 3
                || crashed != null || sample.equals("kv") || readOnly)) {
            throw Cli.refuse(spec, "--services 2 runs echo and kv on one Configuration III agreement group: it needs"
                    + " --config III and takes neither --unreplicated, --tiers 3, --crash, --service nor --read-only");
        }
        if (readOnly && (sample.equals("kv") || tierCount == 3 || profile == SecurityProfile.WSSEC)) {
            throw Cli.refuse(spec, "--read-only declares the echo group's echo operation read-only: it takes neither "
                    + "--service kv, --tiers 3 nor --security wssec (a signed request cannot be changed into an ordered "
                    + "one, so wssec clients never read unordered)");
        }
        HostileOptions attack = hostile == null ? null : hostileOptions(profile);
        if (attack != null && (unreplicated || configuration != Configuration.I || tierCount == 3 || serviceCount == 2
                || sample.equals("kv") || crashed != null || lie != null || readOnly)) {
            throw Cli.refuse(spec, "--hostile attacks the echo group of Configuration I with a second client: it takes "
                    + "neither --unreplicated, --config II/III, --tiers 3, --services 2, --service kv, --crash, "
                    + "--byzantine nor --read-only");
        }
        // with --hostile time bounds the measured phase; the requests only size the client's tables
        int measured = attack == null ? requests
                : (int) Math.min(10_000_000L, 1_000L * Math.max(1, attack.total().toSeconds()));
        return new TestbedOptions(configuration, clients, measured, Math.max(warmup, clients), profile, size,
                unreplicated, keep, crashed, home != null ? home : Cli.home(), protocolElement, tierCount, kind,
                sample, Cli.choice(spec, "--container", container, "simple", "jetty"), serviceCount, lie, readOnly,
                tentative, attack, Cli.choice(spec, "--tls", tls, "on", "off").equals("on"));
    }

    /** The --hostile options, checked. */
    private HostileOptions hostileOptions(SecurityProfile profile) {
        List<HostileMode> modes = new ArrayList<>();
        for (String label : hostile.split(",", -1)) {
            HostileMode mode = HostileMode.of(label.trim()).orElseThrow(() -> Cli.refuse(spec, "--hostile must be "
                    + "one of " + HostileMode.labels().replace("|", ", ") + ", or several separated by commas, not '"
                    + hostile + "'"));
            if (modes.contains(mode)) {
                throw Cli.refuse(spec, "--hostile names " + mode.label() + " twice: one attack per mode");
            }
            if (mode.needsMac() && profile != SecurityProfile.MAC) {
                throw Cli.refuse(spec, "--hostile " + mode.label() + " spoils the mac profile's request "
                        + "authenticators: it needs --security mac");
            }
            modes.add(mode);
        }
        Cli.range(spec, "--hostile-threads", hostileThreads, 1, 256);
        Cli.range(spec, "--hostile-retransmissions", hostileRetransmissions, 0, 100);
        Cli.range(spec, "--hostile-start", hostileStart, 0, 3_600);
        Cli.range(spec, "--hostile-duration", hostileDuration, 1, 3_600);
        Cli.range(spec, "--hostile-after", hostileAfter, 1, 3_600);
        if (!(hostileRate >= 0 && hostileRate <= 1_000_000)) {
            throw Cli.refuse(spec, "--hostile-rate must be between 0 and 1000000, not " + hostileRate);
        }
        return new HostileOptions(modes, hostileThreads, millis("--hostile-timeout", hostileTimeout),
                millis("--hostile-retransmit", hostileRetransmit), hostileRetransmissions, hostileRate,
                Duration.ofSeconds(hostileStart), Duration.ofSeconds(hostileDuration), Duration.ofSeconds(hostileAfter));
    }

    /** {@code 300ms}, {@code 2s} or a number of milliseconds, between 1 ms and 10 minutes. */
    private Duration millis(String option, String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,9})(ms|s)?").matcher(text.trim());
        long ms = !m.matches() ? -1 : "s".equals(m.group(2)) ? Long.parseLong(m.group(1)) * 1_000
                : Long.parseLong(m.group(1));
        if (ms < 1 || ms > 600_000) {
            throw Cli.refuse(spec, option + " takes a duration between 1ms and 600s such as 300ms or 2s, not '"
                    + text + "'");
        }
        return Duration.ofMillis(ms);
    }

    @Override
    public Integer call() {
        TestbedOptions options = options();
        AXIS2_LOG.setLevel(Level.WARNING);
        return new Testbed(options, System.out).run();
    }
}
