package org.bftws.axis2.delivery;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.context.OperationContext;
import org.apache.axis2.engine.AxisEngine;
import org.apache.axis2.engine.MessageReceiver;
import org.apache.axis2.util.MessageContextBuilder;
import org.bftws.rm.ReplyCache.CachedReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers one request to the service through the service's own Axis2 message receiver and captures the reply.
 * A request suspended in its in-flow is resumed (the rest of the in-flow runs, then the receiver); a request built
 * from bytes goes straight to the receiver. A service fault is captured like any reply: the request was executed.
 */
public final class ServiceDelivery {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceDelivery.class);

    /** Set on a message while it is being delivered, so handlers that suspended it let it pass this time. */
    public static final String DELIVERING = "bftws.delivering";
    /** Set by the handler that suspended a message: delivery must resume the in-flow rather than start one. */
    public static final String SUSPENDED = "bftws.suspended";

    private final ReplyCapture capture = new ReplyCapture();

    /**
     * Runs a request whose reply stays on this node and returns the reply's body element alone, serialised once from
     * the service's own tree ({@link ReplyCapture#BODY_ELEMENT_ONLY}) into a buffer of about {@code expectedBytes}; a
     * fault comes back as its whole envelope.
     */
    public CachedReply deliverForBodyElement(MessageContext mc, int expectedBytes) {
        mc.getOperationContext().setProperty(ReplyCapture.BODY_ELEMENT_ONLY, Boolean.TRUE);
        mc.getOperationContext().setProperty(ReplyCapture.SIZE_HINT, expectedBytes);
        return deliver(mc);
    }

    /**
     * Runs a request whose reply goes to a client and whose result the PBFT core keeps: the serialised reply and its
     * body's first element, both from the service's own tree; null for an operation without a reply. The body element
     * is null for a fault (its envelope is all there is).
     */
    public DeliveredReply deliverWithBodyElement(MessageContext mc) {
        mc.getOperationContext().setProperty(ReplyCapture.ALSO_BODY_ELEMENT, Boolean.TRUE);
        CachedReply reply = deliver(mc);
        if (reply == null) {
            return null;
        }
        Object body = reply.fault() ? null : mc.getOperationContext().getProperty(ReplyCapture.BODY_ELEMENT);
        return new DeliveredReply(reply, body instanceof byte[] b ? b : null);
    }

    /**
     * Answers an ordered request with {@code refusal} instead of running it: the fault goes through the out-flow like
     * a service's own (so the client can vote on it), and the request counts as executed, with that fault as its
     * reply. Every correct replica refuses the same request alike, so the fault is decided.
     */
    public DeliveredReply refuse(MessageContext mc, AxisFault refusal) {
        mc.getOperationContext().setProperty(ReplyCapture.ALSO_BODY_ELEMENT, Boolean.TRUE);
        mc.setProperty(DELIVERING, Boolean.TRUE);
        mc.setTransportOut(capture.description());
        sendFault(mc, refusal);
        CachedReply reply = (CachedReply) mc.getOperationContext().getProperty(ReplyCapture.CAPTURED);
        return reply == null ? null : new DeliveredReply(reply, null);
    }

    /** A delivered request's reply as captured, and its body element (null when it was not captured apart). */
    public record DeliveredReply(CachedReply reply, byte[] bodyElement) {
    }

    /** Runs the request; returns the serialised reply, or null for an operation without one (in-only). */
    public CachedReply deliver(MessageContext mc) {
        mc.setProperty(DELIVERING, Boolean.TRUE);
        mc.setTransportOut(capture.description());
        try {
            if (Boolean.TRUE.equals(mc.getProperty(SUSPENDED))) {
                AxisEngine.resume(mc);
            } else {
                MessageReceiver receiver = mc.getAxisOperation().getMessageReceiver();
                receiver.receive(mc);
            }
        } catch (AxisFault | RuntimeException e) {
            sendFault(mc, e);
        }
        OperationContext op = mc.getOperationContext();
        return op == null ? null : (CachedReply) op.getProperty(ReplyCapture.CAPTURED);
    }

    private void sendFault(MessageContext mc, Throwable e) {
        try {
            MessageContext fault = MessageContextBuilder.createFaultMessageContext(mc, e);
            fault.setTransportOut(capture.description());
            AxisEngine.sendFault(fault);
        } catch (AxisFault | RuntimeException again) {
            LOG.error("request {} failed ({}) and its fault could not be built: {}", mc.getMessageID(), e, again);
        }
    }
}
