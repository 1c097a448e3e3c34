package org.bftws.axis2.ordering;

import org.bftws.axis2.tier.NestedAdmission;
import org.bftws.ordering.OrderingHooks;
import org.bftws.ordering.ExecutionQueue;
import org.bftws.ordering.CoreOptions;
import org.bftws.ordering.ReproposalPresigner;
import org.bftws.ordering.SequenceUsers;
import org.bftws.ordering.TotalOrderManager;
import org.bftws.ordering.WsrmSequenceRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.AxisService;
import org.bftws.channels.BinaryChannel;
import org.bftws.channels.ChannelInbound;
import org.bftws.channels.ReplicaChannel;
import org.bftws.channels.ReplicaChannelDecorator;
import org.bftws.axis2.channels.SoapChannel;
import org.bftws.channels.tcp.ChannelKeys;
import org.bftws.axis2.delivery.PendingRequests;
import org.bftws.axis2.rm.RmSource;
import org.bftws.config.GroupConfig;
import org.bftws.config.NodeConfig;
import org.bftws.config.ReplicaChannelKind;
import org.bftws.config.ReplicasConfig;
import org.bftws.config.SecurityConfig;
import org.bftws.core.Membership;
import org.bftws.core.Node;
import org.bftws.rm.InboundSequences;
import org.bftws.rm.ReplyCache;
import org.bftws.security.AuthenticatedParty;
import org.bftws.security.DeploymentTrust;
import org.bftws.security.PartyKeystore;
import org.bftws.security.RelayedRequestVerifier;
import org.bftws.tier.NestedNumbering;
import org.bftws.tier.NestedSequences;
import org.bftws.wire.BinaryCodec;
import org.bftws.wire.BundleCodec;
import org.bftws.wire.MessageSigner;
import org.bftws.wire.NodeDirectory;
import org.bftws.wire.ProofRefusal;
import org.bftws.wire.ProofVerifier;
import org.bftws.wire.SignatureCache;
import org.bftws.wire.WireBundle;
import org.bftws.wire.WireLimits;
import org.bftws.wire.WireMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.bftws.state.Journal;
import org.bftws.core.RequestIdentity;
import org.bftws.metrics.Measurements;

/**
 * This node as a replica of a BFT group (paper Fig. 5, server side): the PBFT core and the components that run it
 * (Total Order Manager and Invoker, the channels to the other replicas, the reply router, signatures of proofs),
 * wired from replicas.xml and the node's keys. A node that is no replica of a BFT group has none of this and serves
 * plain WS-RM.
 */
public final class BftReplica {
    private static final Logger LOG = LoggerFactory.getLogger(BftReplica.class);
    /** Parameter marking the stand-in service an agreement-only node deploys for the replicated service. */
    static final String ORDERING_ONLY = "bftws.orderingOnly";

    private final GroupConfig group;
    private final NodeDirectory directory;
    private final int self;
    private final Membership membership;
    private final BundleCodec codec;
    private final ProofVerifier verifier;
    private final SignatureCache signatures;
    /** Signs a next primary's likely re-proposals while it waits for view-changes; null without keys. */
    private final ReproposalPresigner presigner;
    private final TotalOrderInvoker invoker;
    private final TotalOrderManager manager;
    private final ReplicaChannel channels;
    private final ReplyRouter replies;
    private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();
    /** PBFT messages received, by sending node: a node that floods the group stands out. */
    private final Map<Integer, AtomicLong> received = new ConcurrentHashMap<>();

    private BftReplica(ConfigurationContext context, GroupConfig group, String name, AxisService service,
                       ReplicasConfig config, PendingRequests pending, ReplyCache envelopes, InboundSequences sequences,
                       RmSource source, java.util.function.Consumer<String> endedSequences, NestedAdmission nested)
            throws AxisFault {
        this.group = group;
        this.directory = NodeDirectory.of(group);
        this.self = directory.id(name).orElseThrow();
        this.membership = CoreOptions.membership(group, directory);
        // paper 3.4: a caller group's nested request is named by what its correct copies share, not by one copy's bytes
        RequestIdentity identity = nested == null ? RequestIdentity.BYTES : nested::identify;
        this.codec = new BundleCodec(WireLimits.forGroup(group), identity);
        this.signatures = SignatureCache.forGroup(group);
        SecurityConfig security = group.security();
        MessageSigner signer = null;
        ProofVerifier proofs = null;
        PartyKeystore keys = null;
        if (security.needsKeys()) {
            char[] password = security.storePassword().toCharArray();
            keys = PartyKeystore.load(group.node(name).keystore(), name, password);
            signer = MessageSigner.forNode(keys, directory);
            proofs = new ProofVerifier(directory, DeploymentTrust.load(security.truststore(), password), signatures,
                    RelayedRequestVerifier.forGroup(config, group), SequenceUsers.of(config, group));
        }
        this.verifier = proofs;
        // paper 3.4: the callers' virtual sequences carry nested requests, which this replica votes for only after
        // its own gate admitted them
        java.util.Set<String> virtualSequences = config.callersOf(group).stream()
                .map(caller -> NestedSequences.sequenceId(caller, group.endpoint()))
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
        // mac profile: a client's request carries one MAC per node, which convinces only that node, so every client is
        // gated like a caller group's virtual sequence (docs/protocol.md, "Requests authenticated with MACs")
        boolean macRequests = security.profile() == org.bftws.config.SecurityProfile.MAC;
        java.util.function.Predicate<String> gated = macRequests ? client -> true : virtualSequences::contains;
        Node core = Node.create(self, membership, CoreOptions.options(group.protocol()), gated, new WsrmSequenceRules(virtualSequences));
        this.replies = new ReplyRouter(pending, envelopes, endedSequences);
        this.channels = decorated(context, group.node(name), group.replicaChannel() == ReplicaChannelKind.SOAP
                ? soapChannel(context, membership, signer, source)
                : binaryChannel(context, membership, keys, signer));
        Journal journal = group.dataDirectory() == null ? null : Journal.open(group.dataDirectory().resolve(name));
        this.presigner = signer == null ? null : new ReproposalPresigner(signer, signatures, membership);
        if (journal != null) {
            // Proofs in the journal keep other nodes' signatures; after a restart they go back into the cache.
            journal.recoveredSignatures().forEach(signatures::put);
        }
        java.util.function.Predicate<org.bftws.core.Request> relayedAuthenticated = r -> false;
        if (macRequests) {
            RelayedMacRequests relayed = new RelayedMacRequests(context, group, SequenceUsers.of(config, group));
            relayedAuthenticated = r -> !virtualSequences.contains(r.id().client()) && relayed.authenticatedHere(r);
        }
        OrderingHooks hooks = new OrderingHooks(
                nested == null ? r -> false : nested::admitsRelayedCopy,
                relayedAuthenticated,
                journal == null ? r -> java.util.List.of() : r -> Journal.proofParts(r).stream()
                        .map(m -> signatures.signatureOf(m).orElse(new byte[0])).toList(),
                presigner == null ? vc -> { } : presigner::ownViewChangeSent,
                identity);
        ExecutionQueue executions = new ExecutionQueue();
        this.manager = new TotalOrderManager(core, name, channels, executions, replies, this::collectGarbage, journal,
                hooks);
        this.invoker = new TotalOrderInvoker(new RequestContexts(context, service), envelopes, sequences,
                source == null ? new NestedNumbering() : source.nestedNumbering(), membership.isExecutor(self),
                group.protocol().clientTimeout(), executions, manager, replies::executed,
                nested == null ? r -> { } : nested::executed);
    }

    /**
     * The channel as a test tool's {@link ReplicaChannelDecorator} in the Axis2 configuration wraps it (a Byzantine
     * replica of the testbed), or as it is. A decorator on a node that replicas.xml does not allow to lie is refused.
     */
    private ReplicaChannel decorated(ConfigurationContext context, NodeConfig node, ReplicaChannel channel)
            throws AxisFault {
        Object decorator = context.getAxisConfiguration().getParameterValue(ReplicaChannelDecorator.PARAMETER);
        if (decorator == null) {
            return channel;
        }
        if (!node.byzantineAllowed()) {
            throw new AxisFault("bftws: " + node.name() + " has a replica channel decorator (a Byzantine testing tool),"
                    + " but its <node> in replicas.xml does not say byzantineAllowed=\"true\"");
        }
        LOG.warn("{}: its outbound PBFT messages pass through {} (a Byzantine testing tool)", node.name(),
                decorator.getClass().getName());
        return ((ReplicaChannelDecorator) decorator).decorate(channel, self, membership);
    }

    private ReplicaChannel soapChannel(ConfigurationContext context, Membership membership, MessageSigner signer,
                                       RmSource source) {
        Map<Integer, String> endpoints = new TreeMap<>();
        for (int id = 0; id < directory.size(); id++) {
            endpoints.put(id, group.node(directory.name(id)).controlEndpoint().toString());
        }
        return new SoapChannel(context, self, membership, endpoints, codec, signer, signatures, source);
    }

    /** The binary channel: every node's channel address, and the pair keys (none with profile none). */
    private ReplicaChannel binaryChannel(ConfigurationContext context, Membership membership, PartyKeystore keys,
                                         MessageSigner signer)
            throws AxisFault {
        Map<Integer, java.net.InetSocketAddress> addresses = new TreeMap<>();
        Map<Integer, javax.crypto.SecretKey> pairKeys = new TreeMap<>();
        for (int id = 0; id < directory.size(); id++) {
            NodeConfig n = group.node(directory.name(id));
            java.net.URI channel = n.channelEndpoint();
            // unresolved: a peer's name is looked up when it is dialled, so a host that is down at start-up is no error
            addresses.put(id, id == self ? new java.net.InetSocketAddress(channel.getHost(), channel.getPort())
                    : java.net.InetSocketAddress.createUnresolved(channel.getHost(), channel.getPort()));
            if (keys != null && id != self) {
                pairKeys.put(id, keys.macKeyWith(n.name()).orElseThrow(() -> new AxisFault("bftws: "
                        + directory.name(self) + " shares no pair key with " + n.name() + " (keygen's hmac:"
                        + n.name() + " entry), which the binary replica channel needs: run ./bftws keygen")));
            }
        }
        java.util.Map<Integer, String> names = new TreeMap<>();
        for (int id = 0; id < directory.size(); id++) {
            names.put(id, directory.name(id));
        }
        org.bftws.channels.tcp.ChannelTls tls = keys == null ? null
                : org.bftws.axis2.security.SecurityRuntime.of(context).tls()
                        .map(t -> (org.bftws.channels.tcp.ChannelTls) new org.bftws.tls.ReplicaChannelTls(t, names))
                        .orElse(null);
        return new BinaryChannel(self, membership, addresses, group.service(),
                keys == null ? ChannelKeys.none() : ChannelKeys.of(pairKeys), tls,
                new BinaryCodec(codec.limits(), codec.identity()), signer, signatures, this::receive);
    }

    /**
     * Refuses (IllegalStateException with one line that says what to do) node {@code name} as a replica that could
     * not work: its keystore or the truststore lacks the Ed25519 proof keys (keygen wrote them before proof keys
     * existed), or its data directory was written with RSA proof signatures. The module calls it when it starts, so
     * that such a node stops at once; the replica role itself starts later, once the service is deployed.
     */
    public static void checkStartable(GroupConfig group, String name) {
        if (group == null || group.wsrmOnly()) {
            return;
        }
        SecurityConfig security = group.security();
        if (security.needsKeys()) {
            char[] password = security.storePassword().toCharArray();
            NodeDirectory nodes = NodeDirectory.of(group);
            MessageSigner.forNode(PartyKeystore.load(group.node(name).keystore(), name, password), nodes);
            ProofVerifier.proofKeys(nodes, DeploymentTrust.load(security.truststore(), password));
        }
        if (group.dataDirectory() != null) {
            Journal.formatProblem(group.dataDirectory().resolve(name)).ifPresent(problem -> {
                throw new IllegalStateException(problem);
            });
        }
    }

    /**
     * The replica role of node {@code name}, if it is a node of a group that is not WS-RM-only and the group's
     * service is deployed here; else null.
     */
    public static BftReplica create(ConfigurationContext context, ReplicasConfig config, GroupConfig group,
                                    String name, PendingRequests pending, ReplyCache envelopes, InboundSequences sequences,
                                    RmSource source, java.util.function.Consumer<String> endedSequences,
                                    NestedAdmission nested) throws AxisFault {
        if (name == null || group == null || group.wsrmOnly()) {
            return null;
        }
        AxisService service = context.getAxisConfiguration().getService(group.service());
        if (!group.node(name).role().executes()) {
            // An agreement-only node orders the service's requests without running it: a stand-in takes them.
            service = OrderingOnlyService.deploy(context.getAxisConfiguration(), group.service());
        }
        if (service == null) {
            return null;
        }
        BftReplica replica = new BftReplica(context, group, name, service, config, pending, envelopes, sequences, source,
                endedSequences, nested);
        LOG.info("{} is replica {} of {} (f={}, configuration {}, {})", name, replica.self, group.service(), group.f(),
                group.configuration(), group.security().profile());
        return replica;
    }

    public void start() {
        invoker.start();
        channels.start();
        manager.recover();
        manager.start();
    }

    public void stop() throws InterruptedException {
        manager.stop();
        if (presigner != null) {
            presigner.stop();
        }
        channels.stop();
        invoker.stop();
        replies.stop();
    }

    /** Whether this node executes the service's requests (false: it only orders them, Configurations II and III). */
    public boolean executes() {
        return group.node(directory.name(self)).role().executes();
    }

    /** The stand-in service an agreement-only node dispatches client requests to, or null when it executes. */
    public org.apache.axis2.description.AxisOperation orderingOnlyOperation(AxisService service) {
        return OrderingOnlyService.isStandIn(service) ? service.getOperation(OrderingOnlyService.ORDER) : null;
    }

    public GroupConfig group() {
        return group;
    }

    public int id() {
        return self;
    }

    /** This node's name in replicas.xml. */
    public String name() {
        return directory.name(self);
    }

    /** What this node does in its group (orders, executes, both). */
    public org.bftws.config.NodeRole role() {
        return group.node(name()).role();
    }

    /** The name of view {@code view}'s primary (an agreement node; views rotate over them). */
    public String primaryOf(int view) {
        return directory.name(membership.primary(view));
    }

    public String service() {
        return group.service();
    }

    public TotalOrderInvoker invoker() {
        return invoker;
    }

    public TotalOrderManager manager() {
        return manager;
    }

    /** Checkpoint, state transfer and view change timings of this replica. */
    public Measurements measurements() {
        return manager.measurements();
    }

    BundleCodec codec() {
        return codec;
    }

    /**
     * The node a bundle came from: the authenticated party; with no authentication (profile none) the sender its
     * messages name. -1 when it is no node of this group.
     */
    int senderOf(AuthenticatedParty party, WireBundle bundle) {
        if (party != null) {
            OptionalInt id = directory.id(party.name());
            return id.orElse(-1);
        }
        if (verifier != null || bundle.messages().isEmpty()) {
            return -1;
        }
        int claimed = bundle.messages().get(0).message().sender();
        return directory.isNode(claimed) && claimed != self ? claimed : -1;
    }

    /**
     * What one peer sent in one frame or bundle ({@link ChannelInbound}): each message's embedded signatures and
     * relayed requests are checked (nothing to check without keys); a message that fails is dropped, counted per
     * reason and logged, the others still count. The verified ones go to the manager in one hand-over: what they
     * make the core persist is forced to disk once, not once per message (a new view's re-proposals otherwise cost
     * an fsync per slot: docs/recovery.md).
     */
    void receive(int from, List<WireMessage> messages) {
        received.computeIfAbsent(from, k -> new AtomicLong()).addAndGet(messages.size());
        List<org.bftws.core.Message> verified = new ArrayList<>(messages.size());
        for (WireMessage wm : messages) {
            if (verifier != null) {
                try {
                    verifier.verifyProofs(wm, from);
                } catch (ProofRefusal refusal) {
                    count("PBFT messages refused: " + refusal.reason());
                    LOG.info("dropped a PBFT message from node {}: {}", from, refusal.getMessage());
                    continue;
                }
            }
            verified.add(wm.message());
        }
        manager.onMessages(verified);
    }

    /** Whether PBFT messages come over the SOAP channel (the control service refuses them otherwise). */
    boolean usesSoapChannel() {
        return group.replicaChannel() == ReplicaChannelKind.SOAP;
    }

    private void collectGarbage() {
        signatures.forgetUpTo(manager.stableCheckpoint());
        signatures.forgetViewsBefore(manager.view());
    }

    void count(String what) {
        counters.computeIfAbsent(what, k -> new AtomicLong()).incrementAndGet();
    }

    /** A read-only request was refused (marker on an operation not declared read-only, or misplaced). */
    public void readOnlyRefused() {
        count("read-only requests refused");
    }

    /** Counters: the manager's, this replica's refusals, the replica channel's. */
    public Map<String, Long> counters() {
        Map<String, Long> all = new TreeMap<>(manager.counters());
        counters.forEach((k, v) -> all.put(k, v.get()));
        all.putAll(channels.counters());
        received.forEach((from, n) -> all.put("PBFT messages received from " + (directory.isNode(from)
                ? directory.name(from) : "node " + from), n.get()));
        all.put("requests executed", invoker.executedRequests());
        all.put("read-only requests executed", invoker.readsExecuted());
        all.put("signatures evicted from the full cache", signatures.evictions());
        all.put("signed claims evicted from the full cache", signatures.claimEvictions());
        return all;
    }
}
