package org.bftws.axis2.handlers;


import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.rm.RmFault;
import org.bftws.axis2.rm.RmHeaders;
import org.bftws.axis2.tier.NestedAdmission;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.axis2.delivery.ServiceDelivery;
import org.bftws.rm.Arrival;
import org.bftws.rm.InboundSequence;
import org.bftws.rm.Wsrm;

/**
 * Global in-flow handler before dispatch (paper 3.3.1.3). On a server it suppresses duplicates early: a
 * retransmitted request that was already delivered is answered from the reply cache (which re-acknowledges, since
 * the cached reply carries the acknowledgement) and goes no further. On a client it does nothing: a BFT client must
 * see every replica's reply. Everything else, including the race where a duplicate slips past this check, is
 * settled by {@link InHandler}'s atomic accept.
 */
public final class GlobalInHandler extends AbstractHandler {

    @Override
    public InvocationResponse invoke(MessageContext mc) throws AxisFault {
        if (!mc.isServerSide() || mc.getProperty(ServiceDelivery.DELIVERING) != null
                || Wsrm.isControlAction(mc.getWSAAction())
                || org.bftws.axis2.security.SecurityRuntime.forServiceWithoutModule(mc, this)) {
            return InvocationResponse.CONTINUE;
        }
        RmHeaders.SequenceHeader h;
        try {
            h = RmHeaders.sequence(mc.getEnvelope());
        } catch (RmFault f) {
            throw f.logRefusal(mc, BftwsNode.of(mc.getConfigurationContext()).counters().refused.incrementAndGet());
        }
        if (h == null) {
            return InvocationResponse.CONTINUE;
        }
        BftwsNode node = BftwsNode.of(mc.getConfigurationContext());
        InboundSequence seq = node.destination().sequences().find(h.id()).orElse(null);
        NestedAdmission nested = node.nested();
        if (nested != null && nested.isVirtualSequence(h.id())) {
            return InvocationResponse.CONTINUE; // a copy of a nested request is compared before it is answered
        }
        if (seq == null || seq.peek(h.number()) != Arrival.DUPLICATE_DELIVERED) {
            return InvocationResponse.CONTINUE;
        }
        try {
            SequenceOwnership.check(mc, h.id(), node); // a cached reply goes only to the sequence's owner
        } catch (RmFault f) {
            throw f.logRefusal(mc, node.counters().refused.incrementAndGet());
        }
        return node.destination().answerFromCache(h.id(), h.number(), mc) ? InvocationResponse.ABORT
                : InvocationResponse.CONTINUE;
    }
}
