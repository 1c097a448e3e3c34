package org.bftws.client;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.client.BftwsConfigurator;
import org.bftws.axis2.client.ReplyVoting;
import org.bftws.axis2.rm.RmSource;
import org.bftws.voting.VotingCounters;
import org.bftws.core.ReplyPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client for replicated SOAP services (and plain WS-RM ones) over Axis2's ServiceClient. The blocking {@link #call}
 * sends the payload to an endpoint: a group endpoint from replicas.xml goes to every replica, and returns once the
 * operation's reply policy is met (by default f+1 identical, individually authenticated replies); any other address
 * is a single WS-RM endpoint, so the same code talks to a non-replicated service. Thread-safe: each calling thread
 * has its own ServiceClient and its own WS-RM sequence per endpoint; {@link #close} terminates them all.
 * {@link #callAsync} returns at once with a future; up to {@link BftClientBuilder#maxInFlight} such calls are in
 * flight together, each on a sequence of its own (docs/client.md, "Asynchronous calls").
 *
 * <p>A call fails with an AxisFault: the service's own SOAP fault when f+1 replicas returned it, or, when no reply
 * could be decided (inconclusive vote, every replica done or out of retransmissions), one that names what came back
 * from which replica.
 */
public final class BftClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BftClient.class);
    /** How many TerminateSequence exchanges close() runs at once. */
    private static final int TERMINATING_AT_ONCE = 16;

    private final ConfigurationContext context;
    private final BftwsNode node;
    private final ReplyPolicy defaultPolicy;
    private final Map<String, ReplyPolicy> policies;
    private final CallerClients callers;
    private final AsyncCalls async;
    private final Duration closeGrace;
    private volatile boolean closed;

    BftClient(ConfigurationContext context, ReplyPolicy defaultPolicy, Map<String, ReplyPolicy> policies,
              int maxInFlight, Duration closeGrace) throws AxisFault {
        this.context = context;
        String problem = BftwsConfigurator.startupProblem(context.getAxisConfiguration());
        if (problem != null) {
            throw new AxisFault("bftws: the bftws module did not start: " + problem);
        }
        this.node = BftwsNode.of(context);
        if (maxInFlight >= org.bftws.axis2.client.MulticastSender.DEFAULT_CALLS_AT_ONCE) {
            node.admitCallsAtOnce(maxInFlight + 1); // every async worker, and a blocking call beside them
        }
        this.defaultPolicy = defaultPolicy;
        this.policies = Map.copyOf(policies);
        this.callers = new CallerClients(context);
        this.async = new AsyncCalls(maxInFlight);
        this.closeGrace = closeGrace;
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
        return send(endpoint, action, payload);
    }

    /**
     * Sends like {@link #call} but returns at once: the future completes with the decided reply's Body content, or
     * exceptionally with the very AxisFault {@link #call} would throw (the service's fault, or why no reply could be
     * decided; a non-URL endpoint or a closed client as well). Several calls are in flight at once, each on its own
     * WS-RM sequence; while {@link BftClientBuilder#maxInFlight} calls are in flight this method waits for one to
     * end. Dependent stages without an executor run on the client's worker thread: give long work an executor of
     * your own ({@code thenApplyAsync(fn, executor)}).
     */
    public CompletableFuture<OMElement> callAsync(String endpoint, String action, OMElement payload) {
        return async.submit(() -> send(endpoint, action, payload));
    }

    private OMElement send(String endpoint, String action, OMElement payload) throws AxisFault {
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

    /**
     * TerminateSequence for every sequence used, several at once: each is a voted round trip to the group, and an
     * asynchronous client may have opened one per in-flight slot and endpoint.
     */
    private void terminateSequences(List<List<String>> used) {
        if (used.isEmpty()) {
            return;
        }
        RmSource source = node.source();
        ExecutorService terminators = Executors.newFixedThreadPool(Math.min(TERMINATING_AT_ONCE, used.size()), r -> {
            Thread t = new Thread(r, "bftclient-close");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Callable<Void>> terminations = new ArrayList<>();
            for (List<String> sequence : used) {
                String endpoint = sequence.get(0);
                terminations.add(() -> {
                    try {
                        source.terminate(endpoint, sequence.get(1));
                    } catch (AxisFault | RuntimeException e) {
                        LOG.warn("could not terminate the sequence {} to {}: {}", sequence.get(1), endpoint,
                                e.getMessage());
                    }
                    return null;
                });
            }
            terminators.invokeAll(terminations);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("interrupted while terminating this client's sequences; the rest are left to the replicas'"
                    + " limits");
        } finally {
            terminators.shutdownNow();
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

    /** The most asynchronous calls that were in flight at once so far. */
    public int peakInFlight() {
        return async.peakInFlight();
    }

    /** The Axis2 engine underneath, for what this API does not cover. */
    public ConfigurationContext configurationContext() {
        return context;
    }

    /**
     * Terminates every sequence this client opened (TerminateSequence to each endpoint, so replicas forget it) and
     * stops the Axis2 engine. A sequence that cannot be terminated (its replicas unreachable) is logged and left to
     * the replicas' limits. Asynchronous calls in flight are waited for, at most the builder's {@code closeGrace}
     * (default 30 s); those still running then complete exceptionally with an AxisFault saying the client closed
     * under them. Blocking calls still running on other threads fail.
     */
    @Override
    public void close() throws AxisFault {
        if (closed) {
            return;
        }
        closed = true;
        async.close(closeGrace);
        terminateSequences(callers.sequencesUsed());
        callers.cleanup();
        context.terminate();
    }
}
