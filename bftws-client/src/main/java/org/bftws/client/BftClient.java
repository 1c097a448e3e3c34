package org.bftws.client;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.BftwsNode;
import org.bftws.axis2.client.BftwsConfigurator;
import org.bftws.axis2.client.ReplyVoting;
import org.bftws.axis2.client.RmSource;
import org.bftws.axis2.client.VotingCounters;
import org.bftws.core.ReplyPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A blocking client for replicated SOAP services (and plain WS-RM ones) over Axis2's ServiceClient. {@link #call}
 * sends the payload to an endpoint: a group endpoint from replicas.xml goes to every replica, and returns once the
 * operation's reply policy is met (by default f+1 identical, individually authenticated replies); any other address
 * is a single WS-RM endpoint, so the same code talks to a non-replicated service. Thread-safe: each calling thread
 * has its own ServiceClient and its own WS-RM sequence per endpoint; {@link #close} terminates them all.
 *
 * <p>A call fails with an AxisFault: the service's own SOAP fault when f+1 replicas returned it, or, when no reply
 * could be decided (inconclusive vote, every replica done or out of retransmissions), one that names what came back
 * from which replica.
 */
public final class BftClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BftClient.class);

    private final ConfigurationContext context;
    private final BftwsNode node;
    private final ReplyPolicy defaultPolicy;
    private final Map<String, ReplyPolicy> policies;
    private final CallerClients callers;
    private volatile boolean closed;

    BftClient(ConfigurationContext context, ReplyPolicy defaultPolicy, Map<String, ReplyPolicy> policies)
            throws AxisFault {
        this.context = context;
        String problem = BftwsConfigurator.startupProblem(context.getAxisConfiguration());
        if (problem != null) {
            throw new AxisFault("bftws: the bftws module did not start: " + problem);
        }
        this.node = BftwsNode.of(context);
        this.defaultPolicy = defaultPolicy;
        this.policies = Map.copyOf(policies);
        this.callers = new CallerClients(context);
    }

    public static BftClientBuilder builder() {
        return new BftClientBuilder();
    }

    /**
     * Sends {@code payload} (the SOAP Body's content) with wsa:Action {@code action} to {@code endpoint} and returns
     * the decided reply's Body content, detached from the exchange (safe to keep).
     */
    public OMElement call(String endpoint, String action, OMElement payload) throws AxisFault {
        if (closed) {
            throw new AxisFault("bftws: this BftClient is closed");
        }
        validate(endpoint);
        ServiceClient client = callers.forCurrentThread(endpoint);
        Options options = client.getOptions();
        options.setTo(new EndpointReference(endpoint));
        options.setAction(action);
        ReplyPolicy policy = policies.getOrDefault(action, defaultPolicy);
        options.setProperty(ReplyVoting.REPLY_POLICY, policy);
        try {
            OMElement reply = client.sendReceive(payload);
            return reply == null ? null : reply.cloneOMElement();
        } finally {
            client.cleanupTransport();
        }
    }

    private static void validate(String endpoint) throws AxisFault {
        try {
            URI uri = URI.create(endpoint);
            if (uri.getScheme() == null || !uri.getScheme().startsWith("http") || uri.getHost() == null) {
                throw new IllegalArgumentException("not an http(s) URL");
            }
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new AxisFault("bftws: endpoint '" + endpoint + "' is not an http(s) URL");
        }
    }

    /**
     * The highest view the group at {@code groupEndpoint} vouched for in an accepted reply (f+1 replicas, so at
     * least one correct replica was in it): the view this client believes current. Empty before the first decided
     * call, and for an endpoint that is not a group.
     */
    public OptionalInt lastView(String groupEndpoint) {
        return node.settings().replicas().groupByEndpoint(URI.create(groupEndpoint))
                .map(g -> node.voting().lastView(g)).orElse(OptionalInt.empty());
    }

    /** What the Voter did: decided, inconclusive and undecided calls, counted, dissenting and dropped replies. */
    public VotingCounters counters() {
        return node.voting().counters();
    }

    /** The Axis2 engine underneath, for what this API does not cover. */
    public ConfigurationContext configurationContext() {
        return context;
    }

    /**
     * Terminates every sequence this client opened (TerminateSequence to each endpoint, so replicas forget it) and
     * stops the Axis2 engine. A sequence that cannot be terminated (its replicas unreachable) is logged and left to
     * the replicas' limits. Calls still running on other threads fail.
     */
    @Override
    public void close() throws AxisFault {
        if (closed) {
            return;
        }
        closed = true;
        RmSource source = node.source();
        for (List<String> used : callers.sequencesUsed()) {
            String endpoint = used.get(0);
            try {
                source.terminate(endpoint, used.get(1));
            } catch (AxisFault | RuntimeException e) {
                LOG.warn("could not terminate the sequence {} to {}: {}", used.get(1), endpoint, e.getMessage());
            }
        }
        callers.cleanup();
        context.terminate();
    }
}
