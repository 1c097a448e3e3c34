package org.bftws.axis2.client;

import org.bftws.voting.CallsInFlight;
import org.bftws.voting.NodeReply;
import org.bftws.voting.ReplyCollector;
import org.bftws.voting.Target;
import org.bftws.voting.VotingCounters;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

import org.apache.axiom.om.OMOutputFormat;
import org.apache.axis2.AxisFault;
import org.apache.axis2.Constants;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.context.OperationContext;
import org.apache.axis2.description.TransportOutDescription;
import org.apache.axis2.handlers.AbstractHandler;
import org.apache.axis2.kernel.MessageFormatter;
import org.apache.axis2.kernel.TransportSender;
import org.apache.axis2.kernel.TransportUtils;
import org.apache.axis2.kernel.http.HTTPConstants;
import org.apache.axis2.util.MessageProcessorSelector;
import org.apache.axis2.wsdl.WSDLConstants;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.config.ConnectionConfig;
import org.apache.http.config.RegistryBuilder;
import org.apache.http.conn.socket.ConnectionSocketFactory;
import org.apache.http.conn.socket.LayeredConnectionSocketFactory;
import org.apache.http.conn.socket.PlainConnectionSocketFactory;
import org.apache.http.conn.ssl.SSLConnectionSocketFactory;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
import org.bftws.rm.RmCounters;
import org.bftws.rm.Backoff;
import org.bftws.rm.OutboundSequence;
import org.bftws.security.SignedEnvelope;
import org.bftws.wire.WireLimits;

/**
 * The client's transport sender (paper 3.3.1.2): serialises the (already signed) envelope once, POSTs it to every
 * node of the target over pooled keep-alive connections, keeps retransmitting to each node until it acknowledged
 * the message with a final reply or the limit is hit, and hands the decided reply to Axis2 exactly as the HTTP
 * sender hands over its response (TRANSPORT_IN stream, content type on the In message context), so
 * {@code ServiceClient.sendReceive} returns it. Which reply is decided is up to a {@link ReplyCollector}: the module
 * installs {@link ReplyVoting}, which votes on the replies of a group's replicas.
 *
 * <p>Timeouts (docs/client.md): one attempt to a node waits at most the group's {@code clientTimeout}
 * (replicas.xml {@code protocol}; the module's {@code attemptTimeoutMillis} for a direct endpoint) for the node's
 * answer, since a replica holds the exchange until the request has executed; a node that has not answered by then,
 * or answered "retry later", gets the message again after the backoff, each node on its own, so every replica without
 * a final reply is retransmitted to. Once the vote of a BFT group is settled, nodes still silent get no further
 * retransmissions: replicas that missed the request obtain it from their peers. The call fails when no reply can be
 * decided any more (every node answered or gave up, or the total of all attempts and backoffs ran out).
 */
public final class MulticastSender extends AbstractHandler implements TransportSender, SignedEnvelope.BytesSender {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(MulticastSender.class);

    /** Message context property: the {@link Target} the OutHandler resolved. */
    public static final String TARGET = "bftws.target";
    /** Message context properties: the sequence and message number of an application message. */
    public static final String SEQUENCE = "bftws.outSequence";
    public static final String MESSAGE_NUMBER = "bftws.messageNumber";

    /** How long stop() lets transmissions in flight finish before it interrupts them. */
    static final long DRAIN_MILLIS = 2_000;
    /**
     * How long after a BFT group's vote is decided the exchanges still open with slower replicas are kept. Replicas
     * that are merely a little slower answer within it and their pooled connections stay reusable; one that lags
     * far behind would otherwise tie up a connection and a thread of this client per request for a whole attempt
     * timeout. It has the request already (it was sent in full); only its reply is not waited for.
     */
    static final long ABANDON_AFTER_DECISION_MILLIS = 1_000;
    /** Bytes of a request written in one piece. */
    private static final int MESSAGE_BUFFER = 16 * 1024;
    /** Calls to replicated groups undecided at once unless {@link #admitAtOnce} says otherwise. */
    public static final int DEFAULT_CALLS_AT_ONCE = CallsInFlight.DEFAULT_LIMIT;

    private final TransportOutDescription description = new TransportOutDescription("bftws-multicast");
    private final PoolingHttpClientConnectionManager pool;
    private volatile CallsInFlight calls = new CallsInFlight(CallsInFlight.DEFAULT_LIMIT);
    private final ExecutorService nodes = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "bftws-multicast");
        t.setDaemon(true);
        return t;
    });
    private final ScheduledExecutorService abandoner = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bftws-multicast-abandon");
        t.setDaemon(true);
        return t;
    });
    private final CloseableHttpClient http;
    private final RmCounters counters;
    private final Backoff defaultBackoff;
    private final long attemptTimeoutMillis;
    /** How replies are decided: the client Voter's collector for a group, the first reply for a single node. */
    private final BiFunction<Target, MessageContext, ReplyCollector> collectors;
    /** Where reads accepted and fallen back are counted (the reply voting's counters). */
    private final VotingCounters readCounters;

    public MulticastSender(RmCounters counters, Backoff backoff, long attemptTimeoutMillis,
                           BiFunction<Target, MessageContext, ReplyCollector> collectors, VotingCounters readCounters) {
        this(counters, backoff, attemptTimeoutMillis, collectors, readCounters,
                SSLConnectionSocketFactory.getSocketFactory());
    }

    /**
     * @param https how {@code https://} connections are opened: the party's deployment TLS when replicas.xml has
     *              {@code <tls>} (BftwsNode), else JSSE's defaults (the system's trust store, hostname verification)
     */
    public MulticastSender(RmCounters counters, Backoff backoff, long attemptTimeoutMillis,
                           BiFunction<Target, MessageContext, ReplyCollector> collectors, VotingCounters readCounters,
                           LayeredConnectionSocketFactory https) {
        this.pool = new PoolingHttpClientConnectionManager(RegistryBuilder.<ConnectionSocketFactory>create()
                .register("http", PlainConnectionSocketFactory.getSocketFactory()).register("https", https).build());
        this.counters = counters;
        this.collectors = collectors;
        this.readCounters = readCounters;
        this.defaultBackoff = backoff;
        this.attemptTimeoutMillis = attemptTimeoutMillis;
        sizePool(calls.limit());
        // a request of up to 16 KB (the most one TLS record carries) leaves in one write, headers and body together;
        // with HttpClient's default fragment hint (0) the body went out as a write of its own, over TLS a record
        pool.setDefaultConnectionConfig(ConnectionConfig.custom().setBufferSize(MESSAGE_BUFFER)
                .setFragmentSizeHint(MESSAGE_BUFFER).build());
        RequestConfig timeouts = RequestConfig.custom().setConnectTimeout(2_000)
                .setSocketTimeout((int) attemptTimeoutMillis).build();
        // SOAP over keep-alive connections needs none of a browser's machinery: no cookies, redirects, auth
        // caches, gzip or per-user connection state, each an interceptor or a lookup on every POST (adding cookies
        // alone was 1 % of a replica's CPU samples in a JFR profile); retries are the Transmission's job.
        http = HttpClients.custom().setConnectionManager(pool).setDefaultRequestConfig(timeouts)
                .disableAutomaticRetries().disableCookieManagement().disableRedirectHandling()
                .disableAuthCaching().disableContentCompression().disableConnectionState().build();
        description.setSender(this);
    }

    /**
     * Room per replica for every admitted call plus the slower replicas' exchanges of decided calls, which stay open
     * up to {@link #ABANDON_AFTER_DECISION_MILLIS}: an admitted call never waits for a connection ({@link CallsInFlight}).
     */
    private void sizePool(int callsAtOnce) {
        pool.setDefaultMaxPerRoute(4 * callsAtOnce);
        pool.setMaxTotal(16 * callsAtOnce);
    }

    /**
     * At most {@code n} calls to replicated groups undecided at once (default {@value #DEFAULT_CALLS_AT_ONCE}); a
     * client that runs more concurrent calls (BftClient's maxInFlight) raises it before its first call.
     */
    public void admitAtOnce(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("at least one call must be admitted at once, got " + n);
        }
        sizePool(Math.max(n, calls.limit()));
        calls = new CallsInFlight(n);
    }

    public TransportOutDescription description() {
        return description;
    }

    /** Counts reads accepted and fallen back in {@code counters} (the module's reply voting's). */
    @Override
    public InvocationResponse invoke(MessageContext mc) throws AxisFault {
        Target target = (Target) mc.getProperty(TARGET);
        if (target == null) {
            throw new AxisFault("bftws: MulticastSender selected for a message without a resolved target");
        }
        if (mc.getProperty(ReadOnlyCall.PROPERTY) instanceof ReadOnlyCall read) {
            NodeReply reply = read(mc, target, read);
            if (reply != null) {
                handOver(mc, reply, null);
                return InvocationResponse.CONTINUE;
            }
            read.toOrdered(mc); // and on as the ordered request the call would have been
        }
        Backoff backoff = mc.getProperty(Backoff.PROPERTY) instanceof Backoff b ? b : backoffFor(target);
        long attemptMillis = attemptTimeoutFor(target);
        // a BFT group's vote, once settled, needs no more retransmissions (WS-RM-only nodes deliver in order, and a
        // node missing a message would hold back every later one, so they keep getting it)
        boolean stopWhenSettled = target.group() != null && !target.group().wsrmOnly();
        Transmission.Schedule schedule = new Transmission.Schedule(backoff, attemptMillis, stopWhenSettled);
        ReplyCollector collector = collectorFor(target, mc);
        Transmission.Message message = serialise(mc);
        refuseOversized(target, message);
        List<Transmission> transmissions = new ArrayList<>();
        NodeReply reply = multicast(target, message, schedule, collector, transmissions,
                schedule.totalMillis());
        if (reply == null) {
            throw new AxisFault("bftws: no reply decided for the request to " + target.address() + ": "
                    + collector.whyUndecided());
        }
        if (stopWhenSettled && !transmissions.isEmpty()) {
            abandonLater(transmissions);
        }
        // only a fault can end the sequence: the decided reply is parsed again for that case alone (status 500 marks a
        // fault whatever the replica chose, VotingReplyCollector), not on every call
        if (message.sequence() != null && reply.status() >= 400 && ResponseInspector.endsSequence(reply)) {
            // The group decided the sequence is gone (expired while idle, or ended): the fault goes to the caller,
            // and the next call opens a new sequence instead of failing on this one for ever.
            message.sequence().terminate();
            LOG.info("{}: the replicas answered that sequence {} ended; the next call opens a new one",
                    target.address(), message.sequence().id());
        }
        handOver(mc, reply, collector instanceof VotingReplyCollector v ? v.decidedEnvelope() : null);
        return InvocationResponse.CONTINUE;
    }

    /**
     * A read-only request (docs/client.md, "Read-only operations"): one attempt to every node, no retransmission,
     * accepted on 2f+1 identical replies within the operation's readTimeout (the collector knows the threshold);
     * null when it was not, or when what they agreed on is a fault (the ordered request then says what is right).
     */
    private NodeReply read(MessageContext mc, Target target, ReadOnlyCall read) throws AxisFault {
        long timeout = read.operation().readTimeout().toMillis();
        Transmission.Schedule schedule = new Transmission.Schedule(Backoff.of(java.time.Duration.ofMillis(1), 0),
                timeout, true);
        ReplyCollector collector = collectorFor(target, mc);
        Transmission.Message message = serialise(mc);
        refuseOversized(target, message);
        List<Transmission> transmissions = new ArrayList<>();
        NodeReply reply = multicast(target, message, schedule, collector, transmissions, timeout);
        if (!transmissions.isEmpty()) {
            abandonLater(transmissions);
        }
        if (reply != null && reply.status() < 400) {
            readCounters.readsAccepted.incrementAndGet();
            return reply;
        }
        readCounters.readsFallenBack.incrementAndGet();
        LOG.debug("read-only request {} to {} falls back to an ordered request: {}", mc.getMessageID(),
                target.address(), reply != null ? "the replicas agreed on a fault" : collector.whyUndecided());
        return null;
    }

    /** The voting counters of this engine's client, when the module's reply voting is installed. */
    private ReplyCollector collectorFor(Target target, MessageContext mc) throws AxisFault {
        try {
            return collectors.apply(target, mc);
        } catch (RuntimeException e) {
            throw new AxisFault("bftws: cannot decide replies from " + target.address() + ": " + e.getMessage(), e);
        }
    }

    /** Sends {@code message} to every destination and waits up to {@code waitMillis} for the collector's decision. */
    private NodeReply multicast(Target target, Transmission.Message message, Transmission.Schedule schedule,
                                ReplyCollector collector, List<Transmission> transmissions, long waitMillis)
            throws AxisFault {
        if (target.destinations().size() == 1) {
            new Transmission(http, target.destinations().get(0), message, schedule, collector, counters).run();
            return await(target, collector, waitMillis);
        }
        long admitted = System.nanoTime();
        CallsInFlight calls = this.calls; // the one this call is admitted by is the one it leaves
        try {
            if (!calls.admit(waitMillis)) {
                throw new AxisFault("bftws: the request to " + target.address() + " was not sent: this client had "
                        + calls.limit() + " calls undecided for " + waitMillis + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AxisFault("bftws: interrupted while waiting to send to " + target.address());
        }
        try {
            for (URI node : target.destinations()) {
                Transmission t = new Transmission(http, node, message, schedule, collector, counters);
                transmissions.add(t);
                nodes.execute(t);
            }
            long waited = (System.nanoTime() - admitted) / 1_000_000;
            return await(target, collector, Math.max(1, waitMillis - waited));
        } finally {
            calls.decided();
        }
    }

    private static NodeReply await(Target target, ReplyCollector collector, long waitMillis) throws AxisFault {
        try {
            return collector.await(waitMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AxisFault("bftws: interrupted while waiting for the reply from " + target.address());
        }
    }

    /**
     * A replica refuses a request larger than one PBFT request carries (a replica that missed it could never get it
     * from its peers): say so here, at once, rather than after every replica's refusal. Its message number is taken
     * and will never reach the replicas, which deliver a sequence in order: the sequence is closed, so that the
     * next call opens a new one instead of waiting behind the hole.
     */
    private static void refuseOversized(Target target, Transmission.Message message) throws AxisFault {
        int limit = WireLimits.DEFAULT_MAX_PAYLOAD_BYTES;
        if (target.group() == null || target.group().wsrmOnly() || message.body().length <= limit) {
            return;
        }
        String closed = "";
        if (message.sequence() != null) {
            message.sequence().terminate();
            closed = "; its sequence " + message.sequence().id() + " is closed, the next call opens a new one";
        }
        throw new AxisFault("bftws: the request to " + target.address() + " has " + message.body().length
                + " bytes; the replicas take at most " + limit + " (the most one PBFT request carries)" + closed);
    }

    private void abandonLater(List<Transmission> transmissions) {
        try {
            abandoner.schedule(() -> transmissions.forEach(Transmission::abandon), ABANDON_AFTER_DECISION_MILLIS,
                    TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            transmissions.forEach(Transmission::abandon);
        }
    }

    private Backoff backoffFor(Target target) {
        if (target.group() == null) {
            return defaultBackoff;
        }
        var p = target.group().protocol();
        return Backoff.of(p.retransmissionInterval(), p.maxRetransmissions());
    }

    /** A group's clientTimeout: how long its client waits for a replica's answer before sending again. */
    private long attemptTimeoutFor(Target target) {
        return target.group() == null ? attemptTimeoutMillis : target.group().protocol().clientTimeout().toMillis();
    }

    private static Transmission.Message serialise(MessageContext mc) throws AxisFault {
        OMOutputFormat format = new OMOutputFormat();
        format.setSOAP11(mc.isSOAP11());
        format.setCharSetEncoding(TransportUtils.getCharSetEncoding(mc));
        MessageFormatter formatter = MessageProcessorSelector.getMessageFormatter(mc);
        // a signed request goes as the bytes it was signed as (SignedEnvelope): no tree to build and write again
        byte[] body = SignedEnvelope.bytesToSend(mc).orElse(null);
        if (body == null) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(2048);
            formatter.writeTo(mc, format, out, false);
            body = out.toByteArray();
        }
        String action = mc.getSoapAction() != null && !mc.getSoapAction().isEmpty() ? mc.getSoapAction()
                : mc.getWSAAction();
        String contentType = formatter.getContentType(mc, format, action);
        String soapActionHeader = mc.isSOAP11() ? "\"" + (action == null ? "" : action) + "\"" : null;
        OutboundSequence seq = (OutboundSequence) mc.getProperty(SEQUENCE);
        Long n = (Long) mc.getProperty(MESSAGE_NUMBER);
        return new Transmission.Message(body, contentType, soapActionHeader, seq, n == null ? 0 : n);
    }

    /** What Axis2's HTTPSender does with a response: the In message context reads it from TRANSPORT_IN. */
    private static void handOver(MessageContext mc, NodeReply reply, org.apache.axiom.soap.SOAPEnvelope read)
            throws AxisFault {
        mc.setProperty(HTTPConstants.MC_HTTP_STATUS_CODE, reply.status());
        OperationContext op = mc.getOperationContext();
        if (op == null || reply.isEmpty()) {
            return;
        }
        MessageContext in = op.getMessageContext(WSDLConstants.MESSAGE_LABEL_IN_VALUE);
        if (in != null) {
            in.setProperty(Constants.Configuration.CONTENT_TYPE, reply.contentType());
            in.setProperty(Constants.Configuration.CHARACTER_SET_ENCODING,
                    TransportUtils.getCharSetEncoding(reply.contentType()));
            if (reply.status() >= 400) {
                in.setProcessingFault(true);
            }
            if (read != null) {
                in.setEnvelope(read); // the Voter read these very bytes: Axis2 need not parse them again
            }
        }
        op.setProperty(MessageContext.TRANSPORT_IN, new ByteArrayInputStream(reply.body()));
        // the decided reply's bytes, which the in-flow's security handler checks a MAC over the bytes on
        op.setProperty(org.bftws.security.ReceivedBytes.PROPERTY, reply.body());
    }

    @Override
    public void cleanup(MessageContext msgContext) {
    }

    @Override
    public void init(ConfigurationContext confContext, TransportOutDescription transportOut) {
    }

    @Override
    public void stop() {
        // Let messages in flight reach the replicas that have not answered yet (a vote needs only f+1, so the last
        // replicas' copy of, say, a TerminateSequence is usually still on its way), but only briefly.
        abandoner.shutdownNow();
        nodes.shutdown();
        try {
            if (!nodes.awaitTermination(DRAIN_MILLIS, TimeUnit.MILLISECONDS)) {
                nodes.shutdownNow();
            }
        } catch (InterruptedException e) {
            nodes.shutdownNow();
            Thread.currentThread().interrupt();
        }
        try {
            http.close();
        } catch (java.io.IOException ignored) {
            // closing pooled connections on shutdown: nothing left to do
        }
    }
}
