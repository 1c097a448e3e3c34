package org.bftws.axis2.handlers;

import org.bftws.axis2.headers.BftwsNamespace;
import org.bftws.axis2.rm.RmDestination;
import org.bftws.axis2.headers.ReadOnlyHeader;
import org.bftws.axis2.headers.TentativeHeader;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.ordering.ReadOnlyAdmission;
import org.bftws.axis2.rm.RmHeaders;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.context.OperationContext;
import org.apache.axis2.handlers.AbstractHandler;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.axis2.client.MulticastSender;
import org.bftws.axis2.rm.RmSource;
import org.bftws.voting.Target;
import org.bftws.tier.NestedCallScope;
import org.bftws.tier.NestedSequences;
import org.bftws.rm.InboundSequence;
import org.bftws.rm.OutboundSequence;
import org.bftws.rm.Wsrm;

/**
 * Out-flow handler (RMPhase, before addressing and security; paper 3.3.1.1).
 *
 * <p>Client: creates the sequence on the first application message to an address (CreateSequence), numbers the
 * message with a wsrm:Sequence header, and selects the {@link MulticastSender} as transport, which maps a group
 * endpoint to its nodes and a direct address to itself. Protocol messages are only routed.
 *
 * <p>Server: adds to each reply the acknowledgement of the request's sequence and, when the client offered a
 * sequence for replies, a wsrm:Sequence header numbering the reply like its request (deterministic on every
 * replica, and exactly one reply per request).
 */
public final class OutHandler extends AbstractHandler {

    @Override
    public InvocationResponse invoke(MessageContext mc) throws AxisFault {
        BftwsNode node = BftwsNode.of(mc.getConfigurationContext());
        if (mc.isServerSide()) {
            annotateReply(mc, node);
            return InvocationResponse.CONTINUE;
        }
        if ("false".equals(String.valueOf(mc.getOptions().getProperty(RmSource.RM_ENABLED))) || mc.getTo() == null
                || mc.getTo().hasAnonymousAddress() || mc.getTo().hasNoneAddress()) {
            return InvocationResponse.CONTINUE;
        }
        RmSource source = node.source();
        Target target = source.resolve(mc.getTo().getAddress());
        if (!Wsrm.isControlAction(mc.getWSAAction())) {
            // paper 3.4: a replica's call from inside an ordered execution is its group's nested call
            org.bftws.axis2.ordering.BftReplica replica = node.replica();
            boolean nested = NestedCallScope.active() && replica != null && target.group() != null;
            org.bftws.config.OperationConfig readOnly = nested ? null : readOnly(mc, target);
            if (readOnly != null) {
                // no message number: a read is answered outside the order, and a number it never used would stall
                // the sequence; the MulticastSender numbers it if it has to send it ordered after all
                ReadOnlyHeader.addTo(mc.getEnvelope());
                mc.setProperty(org.bftws.axis2.client.ReadOnlyCall.PROPERTY,
                        new org.bftws.axis2.client.ReadOnlyCall(readOnly, target.group(), source));
                mc.setProperty(MulticastSender.TARGET, target);
                mc.setTransportOut(node.sender().description());
                return InvocationResponse.CONTINUE;
            }
            OutboundSequence seq = nested ? source.nestedSequenceFor(mc, replica.group()) : source.sequenceFor(mc);
            long n = seq.nextMessageNumber();
            if (nested) {
                mc.setMessageID(NestedSequences.messageId(seq.id(), n)); // the same on every caller replica
            }
            RmHeaders.addSequence(mc.getEnvelope(), new RmHeaders.SequenceHeader(seq.id(), n));
            mc.setProperty(MulticastSender.SEQUENCE, seq);
            mc.setProperty(MulticastSender.MESSAGE_NUMBER, n);
        } else if (mc.getOptions().getProperty(RmSource.ORDERED_TERMINATE) instanceof RmHeaders.SequenceHeader h) {
            RmHeaders.addSequence(mc.getEnvelope(), h);
        }
        mc.setProperty(MulticastSender.TARGET, target);
        mc.setTransportOut(node.sender().description());
        return InvocationResponse.CONTINUE;
    }

    /**
     * The read-only operation this call invokes, when it may go unordered: a BFT group declares it read-only for
     * the call's wsa:Action, the caller did not switch the path off, and the group's profile lets the client change
     * the request after it was authenticated, should it have to send it ordered (not {@code wssec}: a signed
     * envelope is final).
     */
    private static org.bftws.config.OperationConfig readOnly(MessageContext mc, Target target) {
        org.bftws.config.GroupConfig group = target.group();
        if (group == null || group.wsrmOnly() || !group.hasReadOnlyOperations()
                || group.security().profile() == org.bftws.config.SecurityProfile.WSSEC
                || "false".equals(String.valueOf(mc.getOptions().getProperty(
                        org.bftws.axis2.client.ReadOnlyCall.ENABLED)))) {
            return null;
        }
        return group.readOnlyForAction(mc.getWSAAction()).orElse(null);
    }

    private static void annotateReply(MessageContext reply, BftwsNode node) throws AxisFault {
        OperationContext op = reply.getOperationContext();
        MessageContext request = op == null ? null : op.getMessageContext(WSDLConstants.MESSAGE_LABEL_IN_VALUE);
        if (request != null && Boolean.TRUE.equals(request.getProperty(ReadOnlyAdmission.READ_ONLY))) {
            ReadOnlyHeader.addTo(reply.getEnvelope()); // covered by the reply's MAC or signature
            return;
        }
        if (request == null || request.getProperty(RmDestination.SEQUENCE_ID) == null) {
            return;
        }
        String seqId = (String) request.getProperty(RmDestination.SEQUENCE_ID);
        long n = (Long) request.getProperty(RmDestination.MESSAGE_NUMBER);
        InboundSequence seq = node.destination().sequences().find(seqId).orElse(null);
        if (seq == null) {
            return;
        }
        if (seq.offeredId() != null) {
            RmHeaders.addSequence(reply.getEnvelope(), new RmHeaders.SequenceHeader(seq.offeredId(), n));
        }
        Object view = request.getProperty(org.bftws.axis2.ordering.TotalOrderInvoker.VIEW);
        if (view != null) {
            // BFT replies say which view ordered them: clients learn the current view from replies.
            reply.getEnvelope().getHeader().addHeaderBlock("View", reply.getEnvelope().getOMFactory()
                    .createOMNamespace(BftwsNamespace.URI, "bftws")).setText(String.valueOf(view));
        }
        if (Boolean.TRUE.equals(request.getProperty(org.bftws.axis2.ordering.TotalOrderInvoker.TENTATIVE))) {
            TentativeHeader.addTo(reply.getEnvelope()); // executed before its batch committed; under the MAC too
        }
        // The request counts as received at reply time even on a replica that got its body from another replica.
        InboundSequence.Acknowledgement ack = seq.acknowledgement();
        RmHeaders.addAcknowledgement(reply.getEnvelope(), ack.ranges().stream().anyMatch(
                r -> r.lower() <= n && n <= r.upper()) ? ack : withNumber(ack, n));
    }

    private static InboundSequence.Acknowledgement withNumber(InboundSequence.Acknowledgement ack, long n) {
        org.bftws.rm.AckRanges ranges = new org.bftws.rm.AckRanges();
        ack.ranges().forEach(ranges::addRange);
        ranges.add(n);
        return new InboundSequence.Acknowledgement(ack.sequenceId(), ranges.ranges(), ack.closed());
    }
}
