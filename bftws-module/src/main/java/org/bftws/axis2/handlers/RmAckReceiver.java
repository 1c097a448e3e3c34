package org.bftws.axis2.handlers;

import org.bftws.axis2.rm.RmFault;
import org.bftws.axis2.rm.RmHeaders;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.engine.MessageReceiver;

/**
 * Receiver of stand-alone wsrm:SequenceAcknowledgement messages (a client acknowledging the replies of a sequence
 * it offered). Replies are retransmitted only when their request is, so the acknowledgements need no action beyond
 * being understood; the exchange is answered 202 Accepted.
 */
public final class RmAckReceiver implements MessageReceiver {

    @Override
    public void receive(MessageContext mc) throws AxisFault {
        try {
            RmHeaders.acknowledgements(mc.getEnvelope());
        } catch (RmFault f) {
            throw f.adaptTo(mc);
        }
    }
}
