package org.bftws.axis2.delivery;

import java.io.ByteArrayOutputStream;

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

/**
 * The transport sender a delivered request's reply goes to: it serialises the reply (after the whole out-flow, so
 * signed when security is on) into bytes and leaves them on the operation context for {@link ServiceDelivery}, which
 * caches them and answers every waiting exchange. Nothing is written to a socket here, which is what lets a replica
 * deliver requests for which no HTTP exchange waits on it.
 */
public final class ReplyCapture extends AbstractHandler implements TransportSender {

    public static final String CAPTURED = "bftws.capturedReply";

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
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        formatter.writeTo(mc, format, out, false);
        String action = mc.getSoapAction() != null ? mc.getSoapAction() : mc.getWSAAction();
        String contentType = formatter.getContentType(mc, format, action);
        boolean fault = mc.isFault() || mc.getEnvelope().hasFault();
        mc.getOperationContext().setProperty(CAPTURED, new CachedReply(out.toByteArray(), contentType, fault));
        return InvocationResponse.CONTINUE;
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
