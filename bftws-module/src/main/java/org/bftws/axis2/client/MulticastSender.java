package org.bftws.axis2.client;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
import org.bftws.axis2.RmCounters;
import org.bftws.rm.Backoff;
import org.bftws.rm.OutboundSequence;

/**
 * The client's transport sender (paper 3.3.1.2): serialises the (already signed) envelope once, POSTs it to every
 * node of the target over pooled keep-alive connections, keeps retransmitting to each node until it acknowledged
 * the message with a final reply or the limit is hit, and hands the decided reply to Axis2 exactly as the HTTP
 * sender hands over its response (TRANSPORT_IN stream, content type on the In message context), so
 * {@code ServiceClient.sendReceive} returns it. Which reply is decided is up to a {@link ReplyCollector}.
 */
public final class MulticastSender extends AbstractHandler implements TransportSender {

    /** Message context property: the {@link Target} the OutHandler resolved. */
    public static final String TARGET = "bftws.target";
    /** Message context properties: the sequence and message number of an application message. */
    public static final String SEQUENCE = "bftws.outSequence";
    public static final String MESSAGE_NUMBER = "bftws.messageNumber";

    private final TransportOutDescription description = new TransportOutDescription("bftws-multicast");
    private final PoolingHttpClientConnectionManager pool = new PoolingHttpClientConnectionManager();
    private final ExecutorService nodes = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "bftws-multicast");
        t.setDaemon(true);
        return t;
    });
    private final CloseableHttpClient http;
    private final RmCounters counters;
    private final Backoff defaultBackoff;
    private final long attemptTimeoutMillis;
    private volatile BiFunction<Target, MessageContext, ReplyCollector> collectors = MulticastSender::defaultCollector;

    public MulticastSender(RmCounters counters, Backoff backoff, long attemptTimeoutMillis) {
        this.counters = counters;
        this.defaultBackoff = backoff;
        this.attemptTimeoutMillis = attemptTimeoutMillis;
        pool.setMaxTotal(256);
        pool.setDefaultMaxPerRoute(64);
        RequestConfig timeouts = RequestConfig.custom().setConnectTimeout(2_000)
                .setSocketTimeout((int) attemptTimeoutMillis).build();
        http = HttpClients.custom().setConnectionManager(pool).setDefaultRequestConfig(timeouts)
                .disableAutomaticRetries().build();
        description.setSender(this);
    }

    public TransportOutDescription description() {
        return description;
    }

    /** Replaces how replies are decided (the client Voter plugs in here). */
    public void setCollectors(BiFunction<Target, MessageContext, ReplyCollector> factory) {
        this.collectors = factory;
    }

    static ReplyCollector defaultCollector(Target target, MessageContext mc) {
        return target.repliesNeeded() == 1 && target.destinations().size() == 1 ? new FirstReply()
                : new MatchingReplies(target.repliesNeeded(), target.destinations().size());
    }

    @Override
    public InvocationResponse invoke(MessageContext mc) throws AxisFault {
        Target target = (Target) mc.getProperty(TARGET);
        if (target == null) {
            throw new AxisFault("bftws: MulticastSender selected for a message without a resolved target");
        }
        Transmission.Message message = serialise(mc);
        ReplyCollector collector = collectors.apply(target, mc);
        Backoff backoff = backoffFor(target);
        if (target.destinations().size() == 1) {
            new Transmission(http, target.destinations().get(0), message, backoff, collector, counters).run();
        } else {
            for (URI node : target.destinations()) {
                nodes.execute(new Transmission(http, node, message, backoff, collector, counters));
            }
        }
        NodeReply reply;
        try {
            reply = collector.await(totalWaitMillis(backoff), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AxisFault("bftws: interrupted while waiting for the reply from " + target.address());
        }
        if (reply == null) {
            throw new AxisFault("bftws: no reply from " + target.address() + " " + target.destinations() + ": "
                    + collector.whyUndecided());
        }
        handOver(mc, reply);
        return InvocationResponse.CONTINUE;
    }

    private Backoff backoffFor(Target target) {
        if (target.group() == null) {
            return defaultBackoff;
        }
        var p = target.group().protocol();
        return Backoff.of(p.retransmissionInterval(), p.maxRetransmissions());
    }

    private long totalWaitMillis(Backoff backoff) {
        long total = 0;
        for (int k = 1; k <= backoff.maxRetransmissions(); k++) {
            total += backoff.delayBefore(k).toMillis() + attemptTimeoutMillis;
        }
        return total + attemptTimeoutMillis + 1_000;
    }

    private static Transmission.Message serialise(MessageContext mc) throws AxisFault {
        OMOutputFormat format = new OMOutputFormat();
        format.setSOAP11(mc.isSOAP11());
        format.setCharSetEncoding(TransportUtils.getCharSetEncoding(mc));
        MessageFormatter formatter = MessageProcessorSelector.getMessageFormatter(mc);
        ByteArrayOutputStream out = new ByteArrayOutputStream(2048);
        formatter.writeTo(mc, format, out, false);
        String action = mc.getSoapAction() != null && !mc.getSoapAction().isEmpty() ? mc.getSoapAction()
                : mc.getWSAAction();
        String contentType = formatter.getContentType(mc, format, action);
        String soapActionHeader = mc.isSOAP11() ? "\"" + (action == null ? "" : action) + "\"" : null;
        OutboundSequence seq = (OutboundSequence) mc.getProperty(SEQUENCE);
        Long n = (Long) mc.getProperty(MESSAGE_NUMBER);
        return new Transmission.Message(out.toByteArray(), contentType, soapActionHeader, seq, n == null ? 0 : n);
    }

    /** What Axis2's HTTPSender does with a response: the In message context reads it from TRANSPORT_IN. */
    private static void handOver(MessageContext mc, NodeReply reply) throws AxisFault {
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
        }
        op.setProperty(MessageContext.TRANSPORT_IN, new ByteArrayInputStream(reply.body()));
    }

    @Override
    public void cleanup(MessageContext msgContext) {
    }

    @Override
    public void init(ConfigurationContext confContext, TransportOutDescription transportOut) {
    }

    @Override
    public void stop() {
        nodes.shutdownNow();
        try {
            http.close();
        } catch (java.io.IOException ignored) {
            // closing pooled connections on shutdown: nothing left to do
        }
    }
}
