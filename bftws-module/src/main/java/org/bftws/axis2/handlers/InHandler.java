package org.bftws.axis2.handlers;

import org.bftws.axis2.headers.ReadOnlyHeader;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.ordering.ReadOnlyAdmission;
import org.bftws.axis2.rm.RmDestination;
import org.bftws.axis2.rm.RmFault;
import org.bftws.axis2.rm.RmHeaders;
import org.bftws.axis2.tier.NestedAdmission;
import org.bftws.axis2.ordering.ControlService;
import org.bftws.axis2.delivery.HttpExchange;

import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.axis2.delivery.ServiceDelivery;
import org.bftws.rm.InboundSequence;
import org.bftws.rm.Wsrm;

/**
 * In-flow handler of services that engage the module (paper 3.3.1.4). On a server, an application message must
 * belong to a known sequence; its first copy is accepted, put in the In Message Queue (the ordering step) and the
 * flow is SUSPENDed, so Axis2's HTTP worker waits until delivery answers the exchange. A copy of a waiting message
 * waits for the same reply; a copy of a delivered one gets the cached reply. WS-RM protocol messages pass on to the
 * module's operations. On a client, replies pass unchanged (the Voter sees them all).
 */
public final class InHandler extends AbstractHandler {
    @Override
    public InvocationResponse invoke(MessageContext mc) throws AxisFault {
        if (!mc.isServerSide() || mc.getProperty(ServiceDelivery.DELIVERING) != null) {
            return InvocationResponse.CONTINUE;
        }
        BftwsNode node = BftwsNode.of(mc.getConfigurationContext());
        if (Wsrm.isControlAction(mc.getWSAAction()) && !orderedTerminate(mc, node)) {
            // Piggy-backed acknowledgements and ack requests must count as understood; the operation handles them.
            RmHeaders.acknowledgements(mc.getEnvelope());
            RmHeaders.ackRequests(mc.getEnvelope());
            return InvocationResponse.CONTINUE;
        }
        try {
            if (ReadOnlyHeader.present(mc.getEnvelope())) {
                return ReadOnlyAdmission.accept(mc, node.replica(), node.counters());
            }
            return accept(mc, node);
        } catch (RmFault f) {
            throw f.logRefusal(mc, node.counters().refused.incrementAndGet());
        }
    }

    /**
     * A TerminateSequence to a replicated service is ordered like a request (docs/protocol.md, "Client sequences
     * end"): it takes the sequence's next message number in a wsrm:Sequence header and goes the way of a request, so
     * every replica removes the sequence at the same point of the order.
     */
    private static boolean orderedTerminate(MessageContext mc, BftwsNode node) {
        String service = serviceName(mc);
        return Wsrm.TERMINATE_SEQUENCE.equals(mc.getWSAAction()) && !ControlService.NAME.equals(service)
                && (node.destination().replicates(service) || node.destination().awaitingTotalOrder(service));
    }

    private InvocationResponse accept(MessageContext mc, BftwsNode node) throws AxisFault {
        RmHeaders.SequenceHeader h = RmHeaders.sequence(mc.getEnvelope());
        RmHeaders.acknowledgements(mc.getEnvelope());
        RmHeaders.ackRequests(mc.getEnvelope());
        if (h == null && Wsrm.TERMINATE_SEQUENCE.equals(mc.getWSAAction())) {
            throw RmFault.invalidMessage("a TerminateSequence to the replicated service " + serviceName(mc) + " is "
                    + "ordered like a request, so that every replica ends the sequence at the same point: number it "
                    + "with a wsrm:Sequence header carrying the sequence's next message number (LastMsgNumber + 1), "
                    + "as BFT-WS clients do");
        }
        if (h == null) {
            throw RmFault.wsrmRequired("the message has no wsrm:Sequence header (namespace " + Wsrm.NS
                    + "). Service " + serviceName(mc) + " accepts application messages only inside a WS-RM 1.1 "
                    + "sequence: send CreateSequence first, then number each message with a wsrm:Sequence header");
        }
        EndpointReference replyTo = mc.getReplyTo();
        if (replyTo != null && !replyTo.hasAnonymousAddress()) {
            throw RmFault.invalidMessage("wsa:ReplyTo " + replyTo.getAddress() + " is not anonymous; this endpoint "
                    + "answers on the HTTP back-channel only");
        }
        RmDestination dest = node.destination();
        if (dest.awaitingTotalOrder(serviceName(mc))) {
            // The node listens before its replica role has started (recovery, keys): plain WS-RM delivery now would
            // execute the request outside the total order on this replica alone.
            throw RmFault.notYetAvailable("this replica of " + serviceName(mc) + " has not started ordering requests "
                    + "yet; retransmit the message later");
        }
        // before anything is kept for it: a party sends only on sequences it owns (adopting one first would let any
        // party take a node's sequences)
        SequenceOwnership.check(mc, h.id(), node);
        InboundSequence seq = dest.sequences().find(h.id()).orElse(null);
        if (seq == null && (dest.replicates(serviceName(mc)) || ControlService.NAME.equals(serviceName(mc)))) {
            // A replica may get a client's request before its CreateSequence (the client goes on after f+1
            // answers), or after a restart that forgot it: the identifier is the group's, the request authenticated.
            try {
                String sender = SequenceOwnership.sender(mc);
                String owner = sender != null && org.bftws.rm.SequenceIds.ownedBy(h.id(), sender) ? sender : "";
                int limit = node.settings().replicas().groupByService(serviceName(mc))
                        .map(g -> g.limits().maxSequencesPerClient()).orElse(Integer.MAX_VALUE);
                seq = dest.sequences().adopt(h.id(), serviceName(mc), owner, limit);
            } catch (org.bftws.rm.CreateSequenceRefused refused) {
                if (refused.overPartyLimit()) {
                    node.counters().sequencesOverPartyLimit.incrementAndGet();
                }
                throw RmFault.unknownSequence(h.id() + " (" + refused.getMessage() + ")");
            }
        }
        if (seq == null) {
            throw RmFault.unknownSequence(h.id());
        }
        if (!seq.service().equals(serviceName(mc))) {
            throw RmFault.unknownSequence(h.id() + " (it belongs to service " + seq.service() + ", not "
                    + serviceName(mc) + ")");
        }
        mc.setProperty(RmDestination.SEQUENCE_ID, seq.id());
        mc.setProperty(RmDestination.MESSAGE_NUMBER, h.number());
        if (ControlService.NAME.equals(serviceName(mc))) {
            return acceptControl(seq, h.number(), mc, node);
        }
        if (dest.orderingOnly(serviceName(mc))) {
            return acceptForOrderingOnly(seq, h.number(), mc, node);
        }
        NestedAdmission nested = node.nested();
        if (nested != null && nested.concerns(seq.id(), mc)) {
            // paper 3.4: a nested request is ordered only once p+1 caller replicas sent identical copies
            NestedAdmission.Outcome o = nested.admit(seq.id(), h.number(), mc);
            if (o.held()) {
                return InvocationResponse.SUSPEND;
            }
            InvocationResponse r = acceptRequest(seq, h.number(), mc, node, dest);
            nested.join(seq, h.number(), o.join());
            return r;
        }
        return acceptRequest(seq, h.number(), mc, node, dest);
    }

    /** An application request in its sequence: ordered (NEW), joined to its waiting copy, or answered from cache. */
    private static InvocationResponse acceptRequest(InboundSequence seq, long n, MessageContext mc, BftwsNode node,
                                                    RmDestination dest) throws AxisFault {
        RmHeaders.SequenceHeader h = new RmHeaders.SequenceHeader(seq.id(), n);
        switch (seq.accept(h.number())) {
            case NEW -> {
                // no tree before ordering: the body stays unparsed (its bytes are what is ordered) until execution
                mc.setProperty(ServiceDelivery.SUSPENDED, Boolean.TRUE);
                dest.accept(seq, h.number(), mc);
                return InvocationResponse.SUSPEND;
            }
            case DUPLICATE_PENDING -> {
                if (dest.join(seq.id(), h.number(), mc)) {
                    return InvocationResponse.SUSPEND;
                }
                return fromCache(dest, seq, h.number(), mc);
            }
            case DUPLICATE_DELIVERED -> {
                return fromCache(dest, seq, h.number(), mc);
            }
            case CLOSED -> throw RmFault.sequenceClosed(seq.id());
            case BEYOND_WINDOW -> {
                // A sequence this node adopted knows nothing of what it delivered before (it forgot the sequence when
                // the replicas expired or ended it, or in a restart): the ordered state answers instead, expired or
                // ended, or from the last-reply table. Refused here, a client whose sequence expired while it waited
                // retransmitted "beyond the window" for good and never learnt it must open a new sequence
                // (measure sequences, 2026-11-27).
                if (seq.adopted()) {
                    if (dest.awaitReplyFromTotalOrder(seq, h.number(), mc)) {
                        return InvocationResponse.SUSPEND;
                    }
                }
                throw RmFault.beyondWindow(seq.id(), h.number(), seq.deliveredUpTo(), node.settings().window());
            }
            default -> throw new IllegalStateException("unhandled arrival");
        }
    }

    /**
     * PBFT messages between replicas: processed on arrival in this HTTP worker (the protocol needs no order among
     * them and tolerates loss), duplicates answered with 202 and dropped, so WS-RM still gives exactly-once.
     */
    private static InvocationResponse acceptControl(InboundSequence seq, long n, MessageContext mc, BftwsNode node)
            throws AxisFault {
        switch (seq.accept(n)) {
            case NEW -> {
                seq.processedOnArrival(n);
                return InvocationResponse.CONTINUE;
            }
            case DUPLICATE_PENDING, DUPLICATE_DELIVERED -> {
                node.counters().duplicatesAnsweredFromCache.incrementAndGet();
                HttpExchange x = HttpExchange.of(mc);
                if (x != null) {
                    x.answerNow(null);
                }
                return InvocationResponse.ABORT;
            }
            case CLOSED -> throw RmFault.sequenceClosed(seq.id());
            case BEYOND_WINDOW -> throw RmFault.beyondWindow(seq.id(), n, seq.deliveredUpTo(), node.settings().window());
            default -> throw new IllegalStateException("unhandled arrival");
        }
    }

    /**
     * An agreement-only replica (Configurations II and III): it orders the request but never executes it, so it
     * takes the request into ordering and acknowledges at once (202); the executors answer the client. A copy is
     * handed to the core again, as PBFT wants for a client's retransmission.
     */
    private static InvocationResponse acceptForOrderingOnly(InboundSequence seq, long n, MessageContext mc,
                                                            BftwsNode node) throws AxisFault {
        org.bftws.axis2.delivery.OrderingStep total = node.destination().orderingFor(seq.service());
        switch (seq.accept(n)) {
            case NEW -> {
                seq.processedOnArrival(n);
                node.counters().accepted.incrementAndGet();
                total.submit(new org.bftws.axis2.delivery.PendingRequest(seq.id(), n, mc));
            }
            case DUPLICATE_PENDING, DUPLICATE_DELIVERED -> total.resubmit(
                    new org.bftws.axis2.delivery.PendingRequest(seq.id(), n, mc));
            case CLOSED -> throw RmFault.sequenceClosed(seq.id());
            case BEYOND_WINDOW -> throw RmFault.beyondWindow(seq.id(), n, seq.deliveredUpTo(), node.settings().window());
            default -> throw new IllegalStateException("unhandled arrival");
        }
        HttpExchange x = HttpExchange.of(mc);
        if (x != null) {
            x.answerNow(null);
        }
        return InvocationResponse.ABORT;
    }

    private static InvocationResponse fromCache(RmDestination dest, InboundSequence seq, long n, MessageContext mc)
            throws AxisFault {
        if (dest.answerFromCache(seq.id(), n, mc)) {
            return InvocationResponse.ABORT;
        }
        if (dest.awaitReplyFromTotalOrder(seq, n, mc)) {
            return InvocationResponse.SUSPEND;
        }
        if (n <= seq.deliveredUpTo()) {
            throw RmFault.replyForgotten("message " + n + " of sequence " + seq.id() + " was already delivered, and "
                    + "its reply is no longer kept (the cache keeps the replies to the last delivered messages of a "
                    + "sequence; raise replyCacheDepth when several threads share one sequence)");
        }
        throw RmFault.notYetAvailable("message " + n + " of sequence " + seq.id() + " was received and is still "
                + "being processed; retransmit it later");
    }

    private static String serviceName(MessageContext mc) {
        return mc.getAxisService() == null ? "?" : mc.getAxisService().getName();
    }
}
