package org.bftws.config;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads conf/replicas.xml: validates it against replicas.xsd, then checks the rules that span elements, and
 * returns the model or throws a {@link ConfigException} that lists every problem with its line and element.
 * Relative paths resolve against the file's directory; omitted tunables take {@link ProtocolConfig#defaults()}.
 */
public final class ReplicasConfigReader {
    private static final ValidatingXmlLoader LOADER =
            new ValidatingXmlLoader(ReplicasConfigReader.class.getResource("replicas.xsd"));

    private ReplicasConfigReader() {
    }

    /** Reads {@code file} and requires every key file it names (one machine runs every party). */
    public static ReplicasConfig read(Path file) {
        return read(file, KeyFileCheck.all());
    }

    /** Reads {@code file}, requiring the key files {@code keyFiles} says this process needs. */
    public static ReplicasConfig read(Path file, KeyFileCheck keyFiles) {
        XmlElement root = LOADER.load(file);
        ConfigProblems problems = new ConfigProblems(file.getFileName().toString());
        Path base = file.toAbsolutePath().normalize().getParent();
        DeploymentKeys keys = DeploymentKeys.read(root.child("keys").orElse(null), base, problems);
        TlsConfig tls = TlsConfig.read(root.child("tls").orElse(null), base, keys.truststore() != null, problems);
        IdentityHashMap<NodeConfig, XmlElement> nodeOrigins = new IdentityHashMap<>();
        GroupReader groupReader = new GroupReader(base, keys, problems, nodeOrigins);
        List<GroupConfig> groups = new ArrayList<>();
        Map<GroupConfig, XmlElement> groupOrigins = new IdentityHashMap<>();
        for (XmlElement g : root.children("group")) {
            GroupConfig group = groupReader.read(g);
            groups.add(group);
            groupOrigins.put(group, g);
        }
        // the services of an agreement group: one Configuration III group each, sharing the agreement nodes
        Map<GroupConfig, XmlElement> sharing = new IdentityHashMap<>();
        for (XmlElement a : root.children("agreementGroup")) {
            List<GroupConfig> shared = groupReader.readShared(a);
            List<XmlElement> services = a.children("service");
            for (int i = 0; i < shared.size(); i++) {
                groups.add(shared.get(i));
                groupOrigins.put(shared.get(i), services.get(i));
                sharing.put(shared.get(i), a);
            }
        }
        List<ClientConfig> clients = new ArrayList<>();
        Map<ClientConfig, XmlElement> clientOrigins = new IdentityHashMap<>();
        for (XmlElement c : root.children("client")) {
            String name = c.required("name");
            ClientConfig client = new ClientConfig(name, c.attribute("keystore").map(k -> base.resolve(k).normalize())
                    .orElseGet(() -> keys.defaultKeystore(name)));
            clients.add(client);
            clientOrigins.put(client, c);
        }
        checkUniqueness(groups, groupOrigins, sharing, nodeOrigins, clients, clientOrigins, problems);
        if (tls != null) {
            checkHttps(groups, nodeOrigins, problems);
        }
        CallerCheck.check(groups, groupOrigins, problems);
        boolean needKeys = groups.stream().anyMatch(g -> g.security().needsKeys());
        if (needKeys && keyFiles.checksAnything() && problems.isEmpty()) {
            checkKeyFiles(keys, groups, nodeOrigins, clients, clientOrigins, keyFiles, problems);
        }
        problems.throwIfAny();
        return new ReplicasConfig(groups, clients, keys.toConfig(), tls);
    }

    private static void checkUniqueness(List<GroupConfig> groups, Map<GroupConfig, XmlElement> groupOrigins,
                                        Map<GroupConfig, XmlElement> sharing, Map<NodeConfig, XmlElement> nodeOrigins,
                                        List<ClientConfig> clients,
                                        Map<ClientConfig, XmlElement> clientOrigins, ConfigProblems problems) {
        Map<String, XmlElement> services = new HashMap<>();
        Map<URI, XmlElement> endpoints = new HashMap<>();
        Map<String, XmlElement> names = new HashMap<>();
        for (GroupConfig group : groups) {
            XmlElement g = groupOrigins.get(group);
            unique(services, group.service(), g, "service name " + group.service(), problems);
            unique(endpoints, group.endpoint(), g, "endpoint " + group.endpoint(), problems);
        }
        // an agreement group's agreement node is listed once per service: the same party, its name counted once
        Map<String, XmlElement> sharedNames = new HashMap<>();
        for (GroupConfig group : groups) {
            XmlElement agreementGroup = sharing.get(group);
            for (NodeConfig node : group.nodes()) {
                XmlElement n = nodeOrigins.get(node);
                String name = node.name().toLowerCase(Locale.ROOT);
                boolean listedBefore = agreementGroup != null && node.role().orders()
                        && sharedNames.putIfAbsent(name, agreementGroup) == agreementGroup;
                if (!listedBefore) {
                    // PKCS#12 folds key aliases to lower case, so names differing in case would collide in a keystore
                    unique(names, name, n, "name " + node.name(), problems);
                }
                unique(endpoints, node.serviceEndpoint(), n, "endpoint " + node.serviceEndpoint(), problems);
                unique(endpoints, node.controlEndpoint(), n, "endpoint " + node.controlEndpoint(), problems);
            }
        }
        for (ClientConfig client : clients) {
            XmlElement c = clientOrigins.get(client);
            unique(names, client.name().toLowerCase(Locale.ROOT), c, "name " + client.name(), problems);
        }
        checkChannelPorts(groups, nodeOrigins, problems);
    }

    /**
     * A binary channel listens on a port of its own: no other node's channel and no HTTP endpoint (whose listener
     * would hold the port) may use the same host and port.
     */
    /** With {@code <tls>} every node serves HTTPS only: its endpoints must say so, or nobody could call it. */
    private static void checkHttps(List<GroupConfig> groups, Map<NodeConfig, XmlElement> nodeOrigins,
                                   ConfigProblems problems) {
        java.util.Set<NodeConfig> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (GroupConfig group : groups) {
            for (NodeConfig node : group.nodes()) {
                if (!seen.add(node)) {
                    continue;
                }
                for (java.net.URI u : new java.net.URI[] {node.serviceEndpoint(), node.controlEndpoint()}) {
                    if (u != null && !"https".equalsIgnoreCase(u.getScheme())) {
                        problems.add(nodeOrigins.get(node), "has endpoint " + u + ", but replicas.xml has <tls>, so"
                                + " every node serves HTTPS only: write it with https://");
                    }
                }
            }
        }
    }

    private static void checkChannelPorts(List<GroupConfig> groups, Map<NodeConfig, XmlElement> nodeOrigins,
                                          ConfigProblems problems) {
        Map<String, XmlElement> http = new HashMap<>();
        for (GroupConfig group : groups) {
            for (NodeConfig node : group.nodes()) {
                http.putIfAbsent(hostPort(node.serviceEndpoint()), nodeOrigins.get(node));
                http.putIfAbsent(hostPort(node.controlEndpoint()), nodeOrigins.get(node));
            }
        }
        Map<String, XmlElement> channels = new HashMap<>();
        for (GroupConfig group : groups) {
            for (NodeConfig node : group.nodes()) {
                if (node.channelEndpoint() == null) {
                    continue;
                }
                XmlElement n = nodeOrigins.get(node);
                String address = hostPort(node.channelEndpoint());
                XmlElement earlier = channels.putIfAbsent(address, n);
                XmlElement httpUser = http.get(address);
                if (earlier != null) {
                    problems.add(n, "uses channelEndpoint " + node.channelEndpoint() + ", which " + earlier.describe()
                            + " on line " + earlier.line() + " already uses; every node's channel needs its own port");
                } else if (httpUser != null) {
                    problems.add(n, "uses channelEndpoint " + node.channelEndpoint() + ", whose port the HTTP endpoint"
                            + " of " + httpUser.describe() + " on line " + httpUser.line() + " uses; the binary channel"
                            + " needs a port of its own");
                }
            }
        }
    }

    private static String hostPort(URI uri) {
        int port = uri.getPort() >= 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
        return String.valueOf(uri.getHost()).toLowerCase(Locale.ROOT) + ":" + port;
    }

    private static <K> void unique(Map<K, XmlElement> seen, K key, XmlElement element, String what,
                                   ConfigProblems problems) {
        XmlElement earlier = seen.putIfAbsent(key, element);
        if (earlier != null && earlier != element) {
            problems.add(element, "uses " + what + ", which " + earlier.describe() + " on line " + earlier.line()
                    + " already uses; names and endpoints must be unique");
        } else if (earlier == element) {
            problems.add(element, "uses " + what + " twice; its service and control endpoints must differ");
        }
    }

    private static void checkKeyFiles(DeploymentKeys keys, List<GroupConfig> groups,
                                      Map<NodeConfig, XmlElement> nodeOrigins, List<ClientConfig> clients,
                                      Map<ClientConfig, XmlElement> clientOrigins, KeyFileCheck keyFiles,
                                      ConfigProblems problems) {
        String hint = " does not exist; run ./bftws keygen to create the deployment's keys";
        if (!Files.isRegularFile(keys.truststore())) {
            problems.add(keys.element(), "names truststore " + keys.truststore() + ", which" + hint);
        }
        for (GroupConfig group : groups) {
            for (NodeConfig node : group.nodes()) {
                if (group.security().needsKeys() && keyFiles.checksKeystoreOf(node.name())
                        && !Files.isRegularFile(node.keystore())) {
                    problems.add(nodeOrigins.get(node), "has keystore " + node.keystore() + ", which" + hint);
                }
            }
        }
        for (ClientConfig client : clients) {
            if (keyFiles.checksKeystoreOf(client.name()) && !Files.isRegularFile(client.keystore())) {
                problems.add(clientOrigins.get(client), "has keystore " + client.keystore() + ", which" + hint);
            }
        }
        keyFiles.party().ifPresent(party -> {
            boolean known = clients.stream().anyMatch(c -> c.name().equalsIgnoreCase(party)) || groups.stream()
                    .flatMap(g -> g.nodes().stream()).anyMatch(n -> n.name().equalsIgnoreCase(party));
            if (!known) {
                problems.add(keys.element(), "belongs to a file that names no node or client '" + party + "'");
            }
        });
    }
}
