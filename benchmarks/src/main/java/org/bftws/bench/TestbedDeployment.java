package org.bftws.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.bftws.axis2.standalone.NodeServer;
import org.bftws.bench.byzantine.ByzantineMode;
import org.bftws.config.Configuration;
import org.bftws.config.NodeRole;
import org.bftws.config.ReplicaChannelKind;
import org.bftws.config.SecurityProfile;

/**
 * The replicas.xml of one testbed run: the echo service's group with the nodes the options ask for, each on a free
 * loopback port chosen now, the run's security profile, the testbed's keys, the client {@value #CLIENT} and the
 * hostile client {@value #HOSTILE_CLIENT} ({@code --hostile}: a second client party with keys of its own).
 * Node names are fixed (replica0..3, and exec0..2 in Configuration III) so one set of keys serves every run.
 */
final class TestbedDeployment {

    static final String SERVICE = "EchoService";
    static final String GROUP_ENDPOINT = "http://echo.bftws.group/axis2/services/" + SERVICE;
    /** The key-value sample's group ({@code --service kv}). */
    static final String KV_SERVICE = "KvService";
    static final String KV_ENDPOINT = "http://kv.bftws.group/axis2/services/" + KV_SERVICE;
    static final String CLIENT = "client1";
    /** The second client party, which {@code --hostile} runs ({@link HostileRun}); named in every run's file. */
    static final String HOSTILE_CLIENT = "hostile";
    /** The middle tier of the 3-tier echo: the echo relay's group, which calls the echo group. */
    static final String RELAY_SERVICE = "EchoRelayService";
    static final String RELAY_ENDPOINT = "http://relay.bftws.group/axis2/services/" + RELAY_SERVICE;

    /**
     * One node of the run: its name, its id among nodes of its kind, its role, its HTTP port and its channel port;
     * with {@code --services 2} also the service it serves (an agreement node is listed once per service it
     * orders, with that service's ports), else null.
     */
    record Node(String name, int id, NodeRole role, int port, int channelPort, String service, String host) {
        Node(String name, int id, NodeRole role, int port, int channelPort) {
            this(name, id, role, port, channelPort, null);
        }

        Node(String name, int id, NodeRole role, int port, int channelPort, String service) {
            this(name, id, role, port, channelPort, service, LOOPBACK);
        }

        String endpoint(String service) {
            return endpoint(service, false);
        }

        /** Its address for {@code service}: HTTPS in a deployment with {@code <tls>}. */
        String endpoint(String service, boolean tls) {
            return (tls ? "https" : "http") + "://" + host + ":" + port + "/axis2/services/" + service;
        }

        /** Where its binary replica channel listens. */
        String channelEndpoint() {
            return "tcp://" + host + ":" + channelPort;
        }
    }

    static final String LOOPBACK = "127.0.0.1";
    /** The ports of a replica on a network stack of its own ({@link #writeGroup} with hosts): nothing else there. */
    static final int OWN_STACK_PORT = 8080;
    static final int OWN_STACK_CHANNEL_PORT = 9090;

    private final Path file;
    private final List<Node> nodes;
    private final String clientEndpoint;

    private TestbedDeployment(Path file, List<Node> nodes) {
        this(file, nodes, GROUP_ENDPOINT);
    }

    private TestbedDeployment(Path file, List<Node> nodes, String clientEndpoint) {
        this.file = file;
        this.nodes = List.copyOf(nodes);
        this.clientEndpoint = clientEndpoint;
    }

    /** What {@code --read-only} adds to the echo group. */
    static final String READ_ONLY_ECHO = "<operation name=\"echo\" readOnly=\"true\"/>";

    /** Chooses the nodes and their ports and writes {@code runDir/replicas.xml}. */
    static TestbedDeployment write(TestbedOptions options, Path runDir, TestbedKeys keys) throws IOException {
        if (options.services() == 2) {
            List<Integer> ports = freePorts(28);
            List<Node> nodes = sharedLayout(ports.subList(0, 14), ports.subList(14, 28));
            Path file = runDir.resolve("replicas.xml");
            Files.writeString(file, sharedXml(nodes, options.security(), keys, options.protocol(), options.channel(),
                    options.tls()));
            return new TestbedDeployment(file, nodes, GROUP_ENDPOINT);
        }
        if (options.tiers() == 3) {
            List<Integer> ports = freePorts(16);
            List<Node> backend = layout(Configuration.I, ports.subList(0, 4), ports.subList(8, 12));
            List<Node> relays = relayLayout(ports.subList(4, 8), ports.subList(12, 16));
            Path file = runDir.resolve("replicas.xml");
            Files.writeString(file, threeTierXml(backend, relays, options.security(), keys, options.protocol(),
                    options.channel(), options.tls()));
            List<Node> all = new ArrayList<>(relays);
            all.addAll(backend);
            return new TestbedDeployment(file, all, RELAY_ENDPOINT);
        }
        int n = options.unreplicated() ? 1 : options.configuration() == Configuration.III ? 7 : 4;
        List<Integer> ports = freePorts(2 * n);
        List<Node> nodes = layout(options.unreplicated() ? null : options.configuration(), ports.subList(0, n),
                ports.subList(n, 2 * n));
        Path file = runDir.resolve("replicas.xml");
        int f = options.unreplicated() ? 0 : 1;
        Configuration configuration = options.unreplicated() ? Configuration.I : options.configuration();
        boolean kv = "kv".equals(options.service());
        // <operation> elements follow <protocol> in a group, so they take its place in the text when there is none
        String protocolAndOperations = !options.readOnly() ? options.protocol()
                : (options.protocol() == null ? "" : options.protocol() + "\n    ") + READ_ONLY_ECHO;
        Files.writeString(file, header(keys, options.tls()) + group(kv ? KV_SERVICE : SERVICE,
                kv ? KV_ENDPOINT : GROUP_ENDPOINT,
                nodes, f, configuration, options.security(), protocolAndOperations, null, "", options.channel(),
                options.byzantine(), options.tls())
                + footer());
        return new TestbedDeployment(file, nodes, kv ? KV_ENDPOINT : GROUP_ENDPOINT);
    }

    /**
     * The node layout of a configuration (null: the single unreplicated node), given an HTTP and a channel port per
     * node. Also the source of the superset of names the testbed's keys are made for.
     */
    static List<Node> layout(Configuration configuration, List<Integer> ports, List<Integer> channelPorts) {
        List<Node> nodes = new ArrayList<>();
        if (configuration == null) {
            nodes.add(new Node("replica0", 0, NodeRole.AGREE_EXECUTE, ports.get(0), channelPorts.get(0)));
            return nodes;
        }
        for (int i = 0; i < 4; i++) {
            NodeRole role = switch (configuration) {
                case I -> NodeRole.AGREE_EXECUTE;
                case II -> i < 3 ? NodeRole.AGREE_EXECUTE : NodeRole.AGREE;
                case III -> NodeRole.AGREE;
            };
            nodes.add(new Node("replica" + i, i, role, ports.get(i), channelPorts.get(i)));
        }
        if (configuration == Configuration.III) {
            for (int i = 0; i < 3; i++) {
                nodes.add(new Node("exec" + i, i, NodeRole.EXECUTE, ports.get(4 + i), channelPorts.get(4 + i)));
            }
        }
        return nodes;
    }

    /**
     * Configuration I's four replicas on free loopback ports with extra group settings, written to
     * {@code runDir/replicas.xml}: {@code protocol} a {@code <protocol .../>} element (or null for the defaults) and
     * {@code dataDirectory} the group's data directory (or null: replicas keep everything in memory).
     */
    static TestbedDeployment writeGroup(Path runDir, SecurityProfile security, TestbedKeys keys, String protocol,
                                        Path dataDirectory) throws IOException {
        return writeGroup(runDir, security, keys, protocol, dataDirectory, null);
    }

    /** As above, with {@code byzantine}'s node allowed to lie ({@code byzantineAllowed="true"}), unless null. */
    static TestbedDeployment writeGroup(Path runDir, SecurityProfile security, TestbedKeys keys, String protocol,
                                        Path dataDirectory, ByzantineMode byzantine) throws IOException {
        return writeGroup(runDir, security, keys, protocol, dataDirectory, byzantine, false);
    }

    /** As above, the group replicating the key-value sample ({@value #KV_SERVICE}) instead of the echo when kv. */
    static TestbedDeployment writeGroup(Path runDir, SecurityProfile security, TestbedKeys keys, String protocol,
                                        Path dataDirectory, ByzantineMode byzantine, boolean kv) throws IOException {
        return writeGroup(runDir, security, keys, protocol, dataDirectory, byzantine, kv ? KV_SERVICE : SERVICE,
                kv ? KV_ENDPOINT : GROUP_ENDPOINT);
    }

    /** As above, the group replicating {@code service} (its Axis2 name) at group endpoint {@code endpoint}. */
    static TestbedDeployment writeGroup(Path runDir, SecurityProfile security, TestbedKeys keys, String protocol,
                                        Path dataDirectory, ByzantineMode byzantine, String service, String endpoint)
            throws IOException {
        return writeGroup(runDir, security, keys, protocol, dataDirectory, byzantine, service, endpoint, null);
    }

    /**
     * As above, each replica i on address {@code hosts.get(i)} (a network stack of its own: ports
     * {@value #OWN_STACK_PORT} and {@value #OWN_STACK_CHANNEL_PORT}), or on free loopback ports when {@code hosts} is
     * null.
     */
    static TestbedDeployment writeGroup(Path runDir, SecurityProfile security, TestbedKeys keys, String protocol,
                                        Path dataDirectory, ByzantineMode byzantine, String service, String endpoint,
                                        List<String> hosts) throws IOException {
        List<Node> nodes;
        if (hosts == null) {
            List<Integer> ports = freePorts(8);
            nodes = layout(Configuration.I, ports.subList(0, 4), ports.subList(4, 8));
        } else {
            if (hosts.size() != 4) {
                throw new IllegalArgumentException("Configuration I has 4 replicas, not " + hosts.size() + " hosts");
            }
            nodes = new ArrayList<>();
            for (Node n : layout(Configuration.I, List.of(0, 0, 0, 0), List.of(0, 0, 0, 0))) {
                nodes.add(new Node(n.name(), n.id(), n.role(), OWN_STACK_PORT, OWN_STACK_CHANNEL_PORT, null,
                        hosts.get(n.id())));
            }
        }
        Path file = runDir.resolve("replicas.xml");
        Files.writeString(file, header(keys, false) + group(service, endpoint, nodes, 1, Configuration.I, security, protocol,
                dataDirectory, "", ReplicaChannelKind.BINARY, byzantine, false) + footer());
        return new TestbedDeployment(file, nodes, endpoint);
    }

    /**
     * The 3-tier echo (paper 4.1.2): the echo relay's group (relay0..3, {@value #RELAY_SERVICE}) whose service calls
     * the echo group (replica0..3), which names the relay group as its caller; Configuration I, f=1 each.
     */
    static String threeTierXml(List<Node> backend, List<Node> relays, SecurityProfile security, TestbedKeys keys,
                               String protocol, ReplicaChannelKind channel, boolean tls) {
        return header(keys, tls)
                + group(RELAY_SERVICE, RELAY_ENDPOINT, relays, 1, Configuration.I, security, protocol, null, "", channel,
                        null, tls)
                + group(SERVICE, GROUP_ENDPOINT, backend, 1, Configuration.I, security, protocol, null,
                "    <caller group=\"" + RELAY_SERVICE + "\"/>\n", channel, null, tls)
                + footer();
    }

    /** The file's opening: the testbed's keys, and {@code <tls/>} (TLS 1.3 on every link) when {@code tls}. */
    private static String header(TestbedKeys keys, boolean tls) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<!-- written by ./bftws testbed for one run: ports were free when it started -->\n"
                + "<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "  <keys truststore=\"" + attr(keys.truststore().toString()) + "\" storePassword=\""
                + attr(TestbedKeys.PASSWORD) + "\"/>\n"
                + (tls ? "  <tls/>\n" : "  <!-- no <tls>: every link is plain TCP or HTTP, readable on the path -->\n");
    }

    private static String footer() {
        return "  <client name=\"" + CLIENT + "\"/>\n  <client name=\"" + HOSTILE_CLIENT + "\"/>\n</replicas>\n";
    }

    private static String group(String service, String endpoint, List<Node> nodes, int f, Configuration configuration,
                                SecurityProfile security, String protocol, Path dataDirectory, String callers,
                                ReplicaChannelKind channel, ByzantineMode byzantine, boolean tls) {
        StringBuilder x = new StringBuilder();
        x.append("  <group service=\"").append(service).append("\" endpoint=\"").append(endpoint)
                .append("\" f=\"").append(f).append("\" configuration=\"").append(configuration).append('"')
                .append(" replicaChannel=\"").append(channel.name().toLowerCase(Locale.ROOT)).append('"')
                .append(dataDirectory == null ? "" : " dataDirectory=\"" + attr(dataDirectory.toString()) + '"')
                .append(">\n")
                .append("    <security profile=\"").append(security.name().toLowerCase(Locale.ROOT))
                .append("\"/>\n");
        if (protocol != null) {
            x.append("    ").append(protocol).append('\n');
        }
        for (Node n : nodes) {
            x.append("    <node id=\"").append(n.id()).append("\" name=\"").append(n.name()).append("\" role=\"")
                    .append(n.role().name().toLowerCase(Locale.ROOT).replace('_', '-'))
                    .append("\" serviceEndpoint=\"").append(n.endpoint(service, tls))
                    .append("\" controlEndpoint=\"").append(n.endpoint("BftControl", tls))
                    .append("\" channelEndpoint=\"").append(n.channelEndpoint()).append('"')
                    // only the node that runs --byzantine may lie (docs/byzantine-testing.md)
                    .append(byzantine != null && n.role().orders() && n.id() == byzantine.testbedNode()
                            ? " byzantineAllowed=\"true\"" : "").append("/>\n");
        }
        return x.append(callers).append("  </group>\n").toString();
    }

    /**
     * Configuration III shared by two services ({@code --services 2}): the agreement nodes replica0..3 once per
     * service (EchoService, then KvService: an HTTP and a channel port each time), echo's execution nodes exec0..2
     * and kv's kv-exec0..2; 14 ports of each kind.
     */
    static List<Node> sharedLayout(List<Integer> ports, List<Integer> channelPorts) {
        List<Node> nodes = new ArrayList<>();
        int k = 0;
        for (String service : List.of(SERVICE, KV_SERVICE)) {
            for (int i = 0; i < 4; i++, k++) {
                nodes.add(new Node("replica" + i, i, NodeRole.AGREE, ports.get(k), channelPorts.get(k), service));
            }
            for (int i = 0; i < 3; i++, k++) {
                nodes.add(new Node((service.equals(SERVICE) ? "" : "kv-") + "exec" + i, i, NodeRole.EXECUTE,
                        ports.get(k), channelPorts.get(k), service));
            }
        }
        return nodes;
    }

    /** The replicas.xml of {@link #sharedLayout}: one {@code <agreementGroup>} (f=1) with echo and kv. */
    static String sharedXml(List<Node> nodes, SecurityProfile security, TestbedKeys keys, String protocol,
                            ReplicaChannelKind channel, boolean tls) {
        StringBuilder x = new StringBuilder(header(keys, tls));
        x.append("  <agreementGroup f=\"1\" replicaChannel=\"").append(channel.name().toLowerCase(Locale.ROOT))
                .append("\">\n    <security profile=\"").append(security.name().toLowerCase(Locale.ROOT))
                .append("\"/>\n");
        if (protocol != null) {
            x.append("    ").append(protocol).append('\n');
        }
        for (String service : List.of(SERVICE, KV_SERVICE)) {
            x.append("    <service name=\"").append(service).append("\" endpoint=\"")
                    .append(service.equals(SERVICE) ? GROUP_ENDPOINT : KV_ENDPOINT).append("\">\n");
            for (Node n : nodes) {
                if (service.equals(n.service())) {
                    x.append("      <node id=\"").append(n.id()).append("\" name=\"").append(n.name())
                            .append("\" role=\"").append(n.role().name().toLowerCase(Locale.ROOT))
                            .append("\" serviceEndpoint=\"").append(n.endpoint(service, tls))
                            .append("\" controlEndpoint=\"").append(n.endpoint("BftControl", tls))
                            .append("\" channelEndpoint=\"").append(n.channelEndpoint()).append("\"/>\n");
                }
            }
            x.append("    </service>\n");
        }
        return x.append("  </agreementGroup>\n").append(footer()).toString();
    }

    /** The echo relay's four replicas (the middle tier of the 3-tier echo), an HTTP and a channel port each. */
    static List<Node> relayLayout(List<Integer> ports, List<Integer> channelPorts) {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            nodes.add(new Node("relay" + i, i, NodeRole.AGREE_EXECUTE, ports.get(i), channelPorts.get(i)));
        }
        return nodes;
    }

    /** Distinct loopback ports free a moment ago ({@link NodeServer#freePorts}). */
    private static List<Integer> freePorts(int n) throws IOException {
        return java.util.Arrays.stream(NodeServer.freePorts(n)).boxed().toList();
    }

    private static String attr(String s) {
        return s.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
    }

    Path file() {
        return file;
    }

    /**
     * Writes {@code copy}, this run's replicas.xml with {@code attributes} (name="value" pairs) set on the group's
     * {@code <protocol>} element, added when there is none: a client's own settings (clientTimeout, retransmissions),
     * which only the client that reads the copy follows. One group only.
     */
    Path writeClientCopy(Path copy, String attributes) throws IOException {
        String xml = Files.readString(file);
        java.util.regex.Matcher protocol = java.util.regex.Pattern.compile("<protocol([^>]*)/>").matcher(xml);
        String replaced;
        if (protocol.find()) {
            String kept = protocol.group(1);
            for (String name : java.util.regex.Pattern.compile("(\\w+)=\"").matcher(attributes).results()
                    .map(r -> r.group(1)).toList()) {
                kept = kept.replaceAll("\\s" + name + "=\"[^\"]*\"", "");
            }
            replaced = xml.substring(0, protocol.start()) + "<protocol" + kept + " " + attributes + "/>"
                    + xml.substring(protocol.end());
        } else {
            java.util.regex.Matcher security = java.util.regex.Pattern.compile("(\\s*)<security [^>]*/>").matcher(xml);
            if (!security.find()) {
                throw new IOException(file + " has no <security> element to put a <protocol> after");
            }
            replaced = xml.substring(0, security.end()) + security.group(1) + "<protocol " + attributes + "/>"
                    + xml.substring(security.end());
        }
        Files.writeString(copy, replaced);
        return copy;
    }

    /** The group endpoint the echo client calls: the echo group's, or with 3 tiers the relay group's. */
    String clientEndpoint() {
        return clientEndpoint;
    }

    List<Node> nodes() {
        return nodes;
    }

    /** The nodes that execute the service, hence every request. */
    java.util.Set<String> executingNames() {
        return nodes.stream().filter(n -> n.role().executes()).map(Node::name)
                .collect(java.util.stream.Collectors.toSet());
    }

    /**
     * The agreement node that crashes for {@code --crash} in {@code view}: its primary (id view mod n), or the
     * backup three places after it. The view matters: a view change during the warm-up (a slow start on a loaded
     * machine) makes replica0 a backup, and a crash of "the primary" that kills replica0 then kills a backup.
     */
    Node crashTarget(String which, int view) {
        // in a 3-tier run "primary" and "backup" are the relay group's, "echo-primary" and "echo-backup" the echo
        // group's behind it
        boolean echo = which.startsWith("echo-");
        boolean tiers = nodes.stream().anyMatch(x -> x.name().startsWith("relay"));
        List<Node> group = nodes.stream().filter(x -> x.role().orders()
                && (!tiers || x.name().startsWith("relay") != echo)).toList();
        int id = (int) ((view + (which.endsWith("primary") ? 0 : 3)) % group.size());
        return group.stream().filter(x -> x.id() == id).findFirst()
                .orElseThrow(() -> new IllegalStateException("no agreement node " + id));
    }
}
