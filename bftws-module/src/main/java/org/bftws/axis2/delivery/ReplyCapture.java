package org.bftws.axis2.delivery;

import java.io.ByteArrayOutputStream;
import java.util.Optional;

import javax.xml.stream.XMLStreamException;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMOutputFormat;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.TransportOutDescription;
import org.apache.axis2.handlers.AbstractHandler;
import org.apache.axis2.kernel.MessageFormatter;
import org.apache.axis2.kernel.TransportSender;
import org.apache.axis2.kernel.TransportUtils;
import org.apache.axis2.util.MessageProcessorSelector;
import org.bftws.rm.ReplyCache.CachedReply;
import org.bftws.security.SignedEnvelope;

/**
 * The transport sender a delivered request's reply goes to: it serialises the reply (after the whole out-flow, so
 * signed when security is on) into bytes and leaves them on the operation context for {@link ServiceDelivery}, which
 * caches them and answers every waiting exchange. Nothing is written to a socket here, which is what lets a replica
 * deliver requests for which no HTTP exchange waits on it.
 */
public final class ReplyCapture extends AbstractHandler implements TransportSender, SignedEnvelope.BytesSender {

    public static final String CAPTURED = "bftws.capturedReply";
    /**
     * Operation-context property: when TRUE, a reply that is not a fault is captured as its body's first element
     * alone, serialised straight from the tree the service returned (no envelope, no re-parse). For requests whose
     * reply never leaves the node and whose content is all that matters: get_state, whose element can be megabytes.
     */
    public static final String BODY_ELEMENT_ONLY = "bftws.captureBodyElementOnly";
    /**
     * Operation-context property (Integer): the size the body element is expected to have (the previous state's), so
     * a 10 MB element is written into a buffer of about the right size instead of one doubled twelve times.
     */
    public static final String SIZE_HINT = "bftws.captureSizeHint";
    /**
     * Operation-context property: when TRUE, a reply that is not a fault is captured whole as usual and, besides, its
     * body's first element serialised from the same tree into {@link #BODY_ELEMENT}: what an executing replica
     * hands the PBFT core as the request's result. Taking it from the tree saves parsing the reply envelope again
     * (3 % of a replica's CPU in a JFR profile of the echo benchmark).
     */
    public static final String ALSO_BODY_ELEMENT = "bftws.captureAlsoBodyElement";
    /** Operation-context property (byte[]): the body element {@link #ALSO_BODY_ELEMENT} asked for. */
    public static final String BODY_ELEMENT = "bftws.capturedBodyElement";

    private final TransportOutDescription description;

    public ReplyCapture() {
        description = new TransportOutDescription("bftws-reply-capture");
        description.setSender(this);
    }

    /** The description to set as a delivered message's transport-out; its reply then comes here. */
    public TransportOutDescription description() {
        return description;
    }

    @Override
    public InvocationResponse invoke(MessageContext mc) throws AxisFault {
        OMOutputFormat format = new OMOutputFormat();
        format.setSOAP11(mc.isSOAP11());
        format.setCharSetEncoding(TransportUtils.getCharSetEncoding(mc));
        MessageFormatter formatter = MessageProcessorSelector.getMessageFormatter(mc);
        String action = mc.getSoapAction() != null ? mc.getSoapAction() : mc.getWSAAction();
        String contentType = formatter.getContentType(mc, format, action);
        boolean fault = mc.isFault() || mc.getEnvelope().hasFault();
        if (!fault && Boolean.TRUE.equals(mc.getOperationContext().getProperty(ALSO_BODY_ELEMENT))) {
            // before the envelope, which is serialised consuming the tree
            mc.getOperationContext().setProperty(BODY_ELEMENT, bodyElementKeepingTree(mc));
        }
        byte[] bytes = !fault && Boolean.TRUE.equals(mc.getOperationContext().getProperty(BODY_ELEMENT_ONLY))
                ? bodyElement(mc) : envelope(mc, formatter, format);
        mc.getOperationContext().setProperty(CAPTURED, new CachedReply(bytes, contentType, fault));
        return InvocationResponse.CONTINUE;
    }

    private static byte[] envelope(MessageContext mc, MessageFormatter formatter, OMOutputFormat format)
            throws AxisFault {
        Optional<byte[]> signed = SignedEnvelope.bytesToSend(mc); // a wssec reply, as it was signed
        if (signed.isPresent()) {
            return signed.get();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        formatter.writeTo(mc, format, out, false);
        return out.toByteArray();
    }

    /** The body's first element serialised once, consuming it (a streaming data source is never expanded). */
    private static byte[] bodyElement(MessageContext mc) throws AxisFault {
        OMElement first = mc.getEnvelope().getBody().getFirstElement();
        if (first == null) {
            return new byte[0];
        }
        Object hint = mc.getOperationContext().getProperty(SIZE_HINT);
        int expected = hint instanceof Integer h ? h : 0;
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(8192, expected + (expected >> 4)));
        try {
            first.serializeAndConsume(out);
        } catch (XMLStreamException e) {
            throw AxisFault.makeFault(e);
        }
        return out.toByteArray();
    }

    /** The body's first element serialised on its own, leaving the tree whole for the envelope after it. */
    private static byte[] bodyElementKeepingTree(MessageContext mc) throws AxisFault {
        OMElement first = mc.getEnvelope().getBody().getFirstElement();
        if (first == null) {
            return new byte[0];
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try {
            first.serialize(out);
        } catch (XMLStreamException e) {
            throw AxisFault.makeFault(e);
        }
        return out.toByteArray();
    }

    @Override
    public void cleanup(MessageContext msgContext) {
    }

    @Override
    public void init(ConfigurationContext confContext, TransportOutDescription transportOut) {
    }

    @Override
    public void stop() {
    }
}
