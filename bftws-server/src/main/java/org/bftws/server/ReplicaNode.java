package org.bftws.server;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.bftws.config.GroupConfig;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.NodeConfig;
import org.bftws.config.ReplicasConfig;
import org.bftws.config.ReplicasConfigReader;

/**
 * The node of replicas.xml that one {@code ./bftws replica} runs, and where it listens: the host and port of its
 * service endpoint (the control endpoint must share them, since a node has one HTTP listener). A loopback host is
 * bound as such, any other host on every interface. Every problem is an IllegalArgumentException (or the reader's
 * ConfigException) whose message says what to fix.
 *
 * @param configFile the replicas.xml read
 * @param group      the node's group
 * @param node       the node
 * @param bind       the address to listen on (a wildcard address for every interface)
 * @param port       the port of its endpoints
 * @param note       a remark for the operator (e.g. the host is not an address of this machine), or null
 */
record ReplicaNode(Path configFile, GroupConfig group, NodeConfig node, InetAddress bind, int port, String note) {

    static ReplicaNode select(ReplicaOptions options) {
        return selectAll(options).get(0);
    }

    /**
     * The node {@code options} name, once per service it serves here: one, except for an agreement node of an
     * {@code <agreementGroup>} started without {@code --group}, which orders each of its services in this JVM (one
     * Axis2 node and listener per service, its endpoints in that service's {@code <service>}).
     */
    static List<ReplicaNode> selectAll(ReplicaOptions options) {
        Path file = options.conf();
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file.toAbsolutePath() + " does not exist; give the deployment's"
                    + " replicas.xml with --conf FILE");
        }
        ReplicasConfig config = ReplicasConfigReader.read(file, KeyFileCheck.none());
        if (options.name() != null && options.group() == null && config.groupsOfNode(options.name()).size() > 1) {
            List<ReplicaNode> all = new java.util.ArrayList<>();
            for (GroupConfig group : config.groupsOfNode(options.name())) {
                all.add(select(file, group, options, config.tlsOn()));
            }
            return all;
        }
        // a name is unique (an agreement node of an <agreementGroup> with --group: that service's node)
        GroupConfig group = options.name() != null && config.groups().size() > 1
                ? config.groupOfNode(options.name(), options.group()).orElseGet(() -> group(config, options.group(), file))
                : group(config, options.group(), file);
        return List.of(select(file, group, options, config.tlsOn()));
    }

    private static ReplicaNode select(Path file, GroupConfig group, ReplicaOptions options, boolean tls) {
        NodeConfig node = node(group, options);
        if (group.security().needsKeys()) {
            // again, now requiring this node's keystore and the truststore: the error then says to run keygen
            ReplicasConfigReader.read(file, KeyFileCheck.forParty(node.name()));
        }
        URI service = node.serviceEndpoint();
        URI control = node.controlEndpoint();
        String scheme = tls ? "https" : "http";
        if (!scheme.equalsIgnoreCase(service.getScheme()) || service.getHost() == null) {
            throw new IllegalArgumentException("<node name=\"" + node.name() + "\"> serviceEndpoint " + service
                    + " is not an " + scheme + "://HOST:PORT/... address" + (tls
                    ? ": replicas.xml has <tls>, so every node serves HTTPS; write its endpoints with https://"
                    : ": replicas.xml has no <tls>, so nodes serve plain HTTP (add <tls/> for HTTPS)"));
        }
        if (!scheme.equalsIgnoreCase(control.getScheme())) {
            throw new IllegalArgumentException("<node name=\"" + node.name() + "\"> controlEndpoint " + control
                    + " must be an " + scheme + ":// address like its serviceEndpoint");
        }
        int defaultPort = tls ? 443 : 80;
        int port = service.getPort() < 0 ? defaultPort : service.getPort();
        int controlPort = control.getPort() < 0 ? defaultPort : control.getPort();
        if (!service.getHost().equalsIgnoreCase(String.valueOf(control.getHost())) || port != controlPort) {
            throw new IllegalArgumentException("<node name=\"" + node.name() + "\"> has its serviceEndpoint on "
                    + service.getHost() + ":" + port + " but its controlEndpoint on " + control.getHost() + ":"
                    + controlPort + "; a node listens on one host and port, so give both the same");
        }
        String expectedPath = "/axis2/services/" + group.service();
        if (!expectedPath.equals(service.getPath())) {
            throw new IllegalArgumentException("<node name=\"" + node.name() + "\"> serviceEndpoint " + service
                    + " must have the path " + expectedPath + ", where Axis2's HTTP server serves the service");
        }
        URI channel = node.channelEndpoint();
        if (channel != null && group.replicaChannel() == org.bftws.config.ReplicaChannelKind.BINARY) {
            try {
                InetAddress.getByName(channel.getHost());
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("host " + channel.getHost() + " of <node name=\"" + node.name()
                        + "\"> channelEndpoint does not resolve: " + e.getMessage());
            }
        }
        return bind(file, group, node, service.getHost(), port);
    }

    private static ReplicaNode bind(Path file, GroupConfig group, NodeConfig node, String host, int port) {
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("host " + host + " of <node name=\"" + node.name()
                    + "\"> does not resolve to an address", e);
        }
        if (address.isLoopbackAddress()) {
            return new ReplicaNode(file, group, node, address, port, null);
        }
        String note = null;
        try {
            if (NetworkInterface.getByInetAddress(address) == null) {
                note = host + " (" + address.getHostAddress() + ") is not an address of this machine;"
                        + " listening on every interface anyway (is this the right --id for this host?)";
            }
        } catch (SocketException e) {
            note = "could not check that " + host + " is an address of this machine: " + e.getMessage();
        }
        try {
            return new ReplicaNode(file, group, node, InetAddress.getByName("0.0.0.0"), port, note);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("the wildcard address always resolves", e);
        }
    }

    private static GroupConfig group(ReplicasConfig config, String service, Path file) {
        List<GroupConfig> groups = config.groups();
        if (service != null) {
            return config.groupByService(service).orElseThrow(() -> new IllegalArgumentException(
                    file + " has no group for service '" + service + "'; its groups: " + services(groups)));
        }
        if (groups.size() != 1) {
            throw new IllegalArgumentException(file + " has " + groups.size() + " groups" + (groups.isEmpty() ? ""
                    : " (" + services(groups) + "); say which with --group SERVICE"));
        }
        return groups.get(0);
    }

    private static NodeConfig node(GroupConfig group, ReplicaOptions options) {
        Optional<NodeConfig> found = options.id() != null
                ? group.agreementNodes().stream().filter(n -> n.id() == options.id()).findFirst()
                : group.nodes().stream().filter(n -> n.name().equals(options.name())).findFirst();
        return found.orElseThrow(() -> new IllegalArgumentException("group " + group.service() + " has no "
                + (options.id() != null ? "agreement node with id " + options.id() + " (ids 0.."
                + (group.agreementNodes().size() - 1) + ")" : "node named '" + options.name() + "'")
                + "; its nodes: " + String.join(", ", group.nodes().stream()
                .map(n -> n.name() + " (" + n.role().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
                        + " " + n.id() + ")").toList())));
    }

    private static String services(List<GroupConfig> groups) {
        return String.join(", ", groups.stream().map(GroupConfig::service).toList());
    }
}
