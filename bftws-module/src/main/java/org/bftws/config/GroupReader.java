package org.bftws.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** Reads one {@code <group>} and checks what lies inside it: node counts per configuration, ids, tunables. */
final class GroupReader {
    private static final String STAND_IN = "urn:bftws:not-a-uri:";
    private final Path base;
    private final DeploymentKeys keys;
    private final ConfigProblems problems;
    private final Map<NodeConfig, XmlElement> origins;

    /** @param origins receives the element each node was read from, for checks across groups */
    GroupReader(Path base, DeploymentKeys keys, ConfigProblems problems, IdentityHashMap<NodeConfig, XmlElement> origins) {
        this.base = base;
        this.keys = keys;
        this.problems = problems;
        this.origins = origins;
    }

    GroupConfig read(XmlElement g) {
        Configuration configuration = Configuration.valueOf(g.attribute("configuration").orElse("I"));
        boolean bft = g.attribute("bft").map(v -> v.equals("true") || v.equals("1")).orElse(true);
        Path data = g.attribute("dataDirectory").map(d -> base.resolve(d).normalize()).orElse(null);
        List<String> callers = g.children("caller").stream().map(c -> c.required("group")).toList();
        return read(g, g, g.required("service"), configuration, bft, data, callers);
    }

    /**
     * The services of one {@code <agreementGroup>}, each as a Configuration III group of its own: the shared
     * agreement nodes (listed again in every service, with the endpoints where they order that service) and the
     * service's execution nodes. Every service must list the same agreement nodes (names and ids); each keeps its
     * data under {@code dataDirectory/SERVICE}, since an agreement node keeps one log per service it orders.
     */
    List<GroupConfig> readShared(XmlElement a) {
        List<GroupConfig> groups = new ArrayList<>();
        Map<Integer, String> agreement = null;
        XmlElement first = null;
        for (XmlElement s : a.children("service")) {
            String service = s.required("name");
            Path data = a.attribute("dataDirectory").map(d -> base.resolve(d).resolve(service).normalize()).orElse(null);
            GroupConfig group = read(a, s, service, Configuration.III, true, data, List.of());
            Map<Integer, String> names = new java.util.TreeMap<>();
            group.agreementNodes().forEach(n -> names.put(n.id(), n.name()));
            if (agreement == null) {
                agreement = names;
                first = s;
            } else if (!agreement.equals(names)) {
                problems.add(s, "lists agreement nodes " + names + ", but " + first.describe() + " on line "
                        + first.line() + " lists " + agreement + "; the services of an <agreementGroup> share its"
                        + " agreement nodes, so each lists the same names with the same ids");
            }
            groups.add(group);
        }
        return groups;
    }

    /**
     * @param shared  the element that holds f, security, protocol and replicaChannel (the group itself, or the
     *                agreement group of a shared service)
     * @param members the element whose {@code <node>} children are the group's nodes and that has the endpoint
     */
    private GroupConfig read(XmlElement shared, XmlElement members, String service, Configuration configuration,
                             boolean bft, Path data, List<String> callers) {
        int f = integer(shared, "f", shared.required("f"));
        SecurityConfig security = security(shared.child("security").orElse(null));
        ProtocolConfig protocol = protocol(shared.child("protocol").orElse(null));
        LimitsConfig limits = limits(shared.child("limits").orElse(null));
        List<NodeConfig> nodes = new ArrayList<>();
        for (XmlElement n : members.children("node")) {
            NodeConfig node = node(n);
            origins.put(node, n);
            nodes.add(node);
        }
        new GroupComposition(members, f, configuration, problems).check(nodes, origins);
        nodes.sort(Comparator.comparing((NodeConfig n) -> !n.role().orders()).thenComparingInt(NodeConfig::id));
        ReplicaChannelKind channel = ReplicaChannelKind.valueOf(shared.attribute("replicaChannel").orElse("binary")
                .toUpperCase(Locale.ROOT));
        List<OperationConfig> operations = new ArrayList<>();
        for (XmlElement o : members.children("operation")) {
            String name = o.required("name");
            if (operations.stream().anyMatch(known -> known.name().equals(name))) {
                problems.add(o, "declares operation " + name + " a second time; declare each operation once");
            }
            operations.add(new OperationConfig(name, o.attribute("readOnly").map(v -> v.equals("true")
                    || v.equals("1")).orElse(false), o.attribute("action").orElse(null),
                    duration(o, "readTimeout", OperationConfig.DEFAULT_READ_TIMEOUT)));
        }
        GroupConfig group = new GroupConfig(service, uri(members, "endpoint", members.required("endpoint")), f,
                configuration, bft, security, protocol, nodes, data, callers, channel, operations, limits);
        if (protocol.tentativeExecution() && (configuration == Configuration.III
                || nodes.stream().anyMatch(n -> n.role() == NodeRole.EXECUTE))) {
            // a tentative run happens where a batch prepared, and an execution-only node sees no prepares
            problems.add(members, "is Configuration " + configuration + " with execution-only nodes (role execute),"
                    + " but its <protocol> sets tentativeExecution=\"true\"; tentative execution needs every executor"
                    + " to take part in ordering: use Configuration I or II, or remove tentativeExecution");
        }
        if (channel == ReplicaChannelKind.BINARY && !group.wsrmOnly()) {
            for (NodeConfig node : nodes) {
                if (node.channelEndpoint() == null) {
                    problems.add(origins.get(node), "has no channelEndpoint; its group exchanges PBFT messages over"
                            + " the binary replica channel (replicaChannel=\"binary\", the default): add"
                            + " channelEndpoint=\"tcp://HOST:PORT\" (a port of its own), or set replicaChannel=\"soap\""
                            + " on the group");
                }
            }
        }
        return group;
    }

    private NodeConfig node(XmlElement n) {
        String name = n.required("name");
        NodeRole role = NodeRole.valueOf(n.attribute("role").orElse("agree-execute")
                .toUpperCase(Locale.ROOT).replace('-', '_'));
        Path keystore = n.attribute("keystore").map(k -> base.resolve(k).normalize())
                .orElseGet(() -> keys.defaultKeystore(name));
        URI channel = n.attribute("channelEndpoint").map(v -> uri(n, "channelEndpoint", v)).orElse(null);
        if (channel != null && !isStandIn(channel) && (channel.getPort() < 1 || channel.getPort() > 65535)) {
            problems.add(n, "has channelEndpoint=\"" + channel + "\"; its port must be 1..65535");
        }
        return new NodeConfig(integer(n, "id", n.required("id")), name,
                uri(n, "serviceEndpoint", n.required("serviceEndpoint")),
                uri(n, "controlEndpoint", n.required("controlEndpoint")), role, keystore, channel,
                Boolean.parseBoolean(n.attribute("byzantineAllowed").orElse("false")));
    }

    /**
     * Attribute {@code attribute} of {@code e} as a URI. The schema's anyURI lets through text that java.net.URI
     * refuses ({@code http://host/a{b}: found by ReplicasXmlFuzzTest); that is a problem of the file with its line,
     * and a stand-in, unique to the attribute, takes its place until the reader throws every problem.
     */
    private URI uri(XmlElement e, String attribute, String value) {
        try {
            return new URI(value);
        } catch (URISyntaxException bad) {
            problems.add(e, "has " + attribute + "=\"" + value + "\", which is not a URI: " + bad.getReason()
                    + (bad.getIndex() >= 0 ? " at character " + (bad.getIndex() + 1) : ""));
            return URI.create(STAND_IN + e.line() + ":" + attribute);
        }
    }

    private static boolean isStandIn(URI uri) {
        return uri.toString().startsWith(STAND_IN);
    }

    private SecurityConfig security(XmlElement s) {
        if (s == null) {
            return new SecurityConfig(SecurityProfile.NONE, keys.truststore(), keys.password(),
                    SecurityConfig.DEFAULT_TIMESTAMP_TTL, SecurityConfig.DEFAULT_CLOCK_SKEW);
        }
        SecurityProfile profile = SecurityProfile.valueOf(s.required("profile").toUpperCase(Locale.ROOT));
        Duration ttl = duration(s, "timestampTtl", SecurityConfig.DEFAULT_TIMESTAMP_TTL);
        Duration skew = s.attribute("clockSkew").map(DurationText::parse).orElse(SecurityConfig.DEFAULT_CLOCK_SKEW);
        if (profile != SecurityProfile.NONE && keys.element() == null) {
            problems.add(s, "needs keys, but the file has no <keys truststore=\"...\" storePassword=\"...\"/>; add it"
                    + " before the first <group> and run ./bftws keygen");
        }
        return new SecurityConfig(profile, keys.truststore(), keys.password(), ttl, skew);
    }

    private LimitsConfig limits(XmlElement l) {
        LimitsConfig d = LimitsConfig.defaults();
        if (l == null) {
            return d;
        }
        return new LimitsConfig(count(l, "maxQueuedConnections", d.maxQueuedConnections()),
                l.attribute("staleConnectionAfter").isPresent() ? duration(l, "staleConnectionAfter", null) : null,
                count(l, "refusalsPerSecondPerAddress", d.refusalsPerSecondPerAddress()),
                count(l, "maxSequencesPerClient", d.maxSequencesPerClient()),
                count(l, "maxHeldExchangesPerClient", d.maxHeldExchangesPerClient()));
    }

    private ProtocolConfig protocol(XmlElement p) {
        ProtocolConfig d = ProtocolConfig.defaults();
        if (p == null) {
            return d;
        }
        ProtocolConfig c = new ProtocolConfig(count(p, "checkpointInterval", d.checkpointInterval()),
                count(p, "watermarkWindow", d.watermarkWindow()), count(p, "batchMaxSize", d.batchMaxSize()),
                duration(p, "batchMaxDelay", d.batchMaxDelay()), count(p, "maxBatchesInFlight", d.maxBatchesInFlight()),
                duration(p, "viewChangeTimeout", d.viewChangeTimeout()),
                duration(p, "retransmissionInterval", d.retransmissionInterval()),
                count(p, "maxRetransmissions", d.maxRetransmissions()), duration(p, "clientTimeout", d.clientTimeout()),
                durationOrZero(p, "batchWaitForClients", d.batchWaitForClients()),
                durationOrZero(p, "sequenceIdleLimit", d.sequenceIdleLimit()),
                duration(p, "clockSkewBound", d.clockSkewBound()),
                flag(p, "tentativeExecution", d.tentativeExecution()));
        if (!c.sequenceIdleLimit().isZero() && c.sequenceIdleLimit().compareTo(c.clockSkewBound().multipliedBy(4)) < 0) {
            // the agreed time may run up to a bound ahead of the clock an entry's activity was stamped with, and
            // that one a bound behind: a limit this close to the bound would expire sequences that are not idle
            problems.add(p, "has sequenceIdleLimit " + DurationText.format(c.sequenceIdleLimit())
                    + " shorter than 4 x clockSkewBound (" + DurationText.format(c.clockSkewBound()) + "); active"
                    + " sequences could expire: raise the limit, or use 0ms to never expire idle sequences");
        }
        if (c.watermarkWindow() < c.checkpointInterval()) {
            // PBFT stalls: the primary may not propose beyond the window before a checkpoint can become stable
            problems.add(p, "has watermarkWindow " + c.watermarkWindow() + " smaller than checkpointInterval "
                    + c.checkpointInterval() + "; ordering would stall before the first checkpoint (use >= 2x)");
        }
        return c;
    }

    /** A true/false setting; the schema's xs:boolean also lets 1 and 0 through, which mean the same. */
    private boolean flag(XmlElement e, String attribute, boolean fallback) {
        Optional<String> text = e.attribute(attribute);
        if (text.isEmpty()) {
            return fallback;
        }
        switch (text.get().trim()) {
            case "true", "1" -> {
                return true;
            }
            case "false", "0" -> {
                return false;
            }
            default -> {
                problems.add(e, "has " + attribute + "=\"" + text.get() + "\"; it must be true or false");
                return fallback;
            }
        }
    }

    private int count(XmlElement e, String attribute, int fallback) {
        return positive(e, attribute, fallback, v -> integer(e, attribute, v), v -> v > 0);
    }

    private Duration duration(XmlElement e, String attribute, Duration fallback) {
        return positive(e, attribute, fallback, DurationText::parse, v -> !v.isZero() && !v.isNegative());
    }

    /** A duration that may be zero (switches its feature off); the schema's form has no sign. */
    private Duration durationOrZero(XmlElement e, String attribute, Duration fallback) {
        return e.attribute(attribute).map(DurationText::parse).orElse(fallback);
    }

    private <T> T positive(XmlElement e, String attribute, T fallback, Function<String, T> parse,
                           java.util.function.Predicate<T> isPositive) {
        Optional<String> text = e.attribute(attribute);
        if (text.isEmpty()) {
            return fallback;
        }
        T value = parse.apply(text.get());
        if (!isPositive.test(value)) {
            problems.add(e, "has " + attribute + "=\"" + text.get() + "\"; it must be positive");
            return fallback;
        }
        return value;
    }

    private int integer(XmlElement e, String attribute, String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException tooLarge) {
            problems.add(e, "has " + attribute + "=\"" + text + "\", which is too large");
            return 0;
        }
    }
}
