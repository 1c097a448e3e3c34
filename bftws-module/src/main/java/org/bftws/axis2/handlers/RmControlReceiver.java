package org.bftws.axis2.handlers;

import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.rm.RmBodies;
import org.bftws.axis2.rm.RmFault;
import org.bftws.axis2.rm.RmHeaders;
import java.net.URI;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.receivers.AbstractInOutMessageReceiver;
import org.bftws.rm.CreateSequenceRefused;
import org.bftws.rm.InboundSequence;
import org.bftws.rm.Wsrm;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receiver of the WS-RM protocol operations module.xml adds to every service that engages the module:
 * CreateSequence (with the deterministic identifier), CloseSequence, TerminateSequence and a stand-alone
 * AckRequested. The answers go back on the HTTP response (anonymous AcksTo only).
 */
public final class RmControlReceiver extends AbstractInOutMessageReceiver {
    private static final Logger LOG = LoggerFactory.getLogger(RmControlReceiver.class);

    @Override
    public void invokeBusinessLogic(MessageContext in, MessageContext out) throws AxisFault {
        BftwsNode node = BftwsNode.of(in.getConfigurationContext());
        SOAPEnvelope reply = getSOAPFactory(in).getDefaultEnvelope();
        out.setEnvelope(reply);
        String action = in.getWSAAction();
        try {
            OMElement body = RmBodies.of(in.getEnvelope());
            switch (action == null ? "" : action) {
                case Wsrm.CREATE_SEQUENCE -> createSequence(in, out, node, body);
                case Wsrm.CLOSE_SEQUENCE -> {
                    InboundSequence seq = known(in, node, RmBodies.identifier(body, "CloseSequence"));
                    seq.close();
                    RmHeaders.addAcknowledgement(reply, seq.acknowledgement());
                    reply.getBody().addChild(RmBodies.identified("CloseSequenceResponse", seq.id(), 0));
                    out.setWSAAction(Wsrm.CLOSE_SEQUENCE_RESPONSE);
                }
                case Wsrm.TERMINATE_SEQUENCE -> terminate(in, out, node, RmBodies.identifier(body, "TerminateSequence"));
                case Wsrm.ACK_REQUESTED -> {
                    for (String id : RmHeaders.ackRequests(in.getEnvelope())) {
                        RmHeaders.addAcknowledgement(reply, known(in, node, id).acknowledgement());
                    }
                    out.setWSAAction(Wsrm.SEQUENCE_ACKNOWLEDGEMENT);
                }
                default -> throw RmFault.invalidMessage("unsupported WS-RM action " + action);
            }
        } catch (RmFault f) {
            node.counters().refused.incrementAndGet();
            LOG.info("WS-RM {} refused: {}", action, f.getReason());
            throw f.adaptTo(in);
        }
    }

    private static void createSequence(MessageContext in, MessageContext out, BftwsNode node, OMElement body)
            throws RmFault {
        RmBodies.CreateSequence cs = RmBodies.readCreateSequence(body);
        if (!Wsrm.WSA_ANONYMOUS.equals(cs.acksTo())) {
            throw RmFault.createSequenceRefused("AcksTo " + cs.acksTo() + " is not the anonymous address; this "
                    + "endpoint sends acknowledgements on the HTTP back-channel only");
        }
        String service = in.getAxisService().getName();
        URI endpoint = node.settings().replicas().groupByService(service).map(g -> g.endpoint())
                .orElseGet(() -> URI.create(in.getTo() == null ? service : in.getTo().getAddress()));
        java.util.Optional<org.bftws.config.GroupConfig> group = node.settings().replicas().groupByService(service);
        if (group.isPresent() && !callerGroupsSequence(node, group.get(), cs.clientUuid())) {
            checkCreationTime(group.get(), cs.clientUuid());
        }
        InboundSequence seq;
        try {
            seq = node.destination().sequences().create(cs.clientUuid(), endpoint, cs.offeredId(), service,
                    SequenceOwnership.ownerOfNew(in, cs.clientUuid(), node),
                    group.map(g -> g.limits().maxSequencesPerClient()).orElse(Integer.MAX_VALUE));
        } catch (CreateSequenceRefused e) {
            if (e.overPartyLimit()) {
                node.counters().sequencesOverPartyLimit.incrementAndGet();
            }
            throw RmFault.createSequenceRefused(e.getMessage());
        }
        if (org.bftws.axis2.ordering.ControlService.NAME.equals(service)) {
            node.counters().controlSequencesCreated.incrementAndGet();
        } else {
            node.counters().sequencesCreated.incrementAndGet();
        }
        out.getEnvelope().getBody().addChild(RmBodies.createSequenceResponse(seq.id(), seq.offeredId() != null));
        out.setWSAAction(Wsrm.CREATE_SEQUENCE_RESPONSE);
    }

    /**
     * With sequence expiry, the creation time in a client's version 7 UUID becomes part of the sequence identifier
     * and is judged against the replicas' agreed time when the sequence is used: refused here already when it lies
     * more than half the idle limit from this replica's clock (the client's clock is wrong), so the client learns
     * it now and not from an expired fault later. Other UUIDs give identifiers without a creation time, which a
     * group with an idle limit refuses as expired (only caller groups' virtual sequences have none).
     */
    /** Whether {@code clientUuid} is a caller group's (paper 3.4): its virtual sequence has no creation time. */
    private static boolean callerGroupsSequence(BftwsNode node, org.bftws.config.GroupConfig group, String clientUuid) {
        return clientUuid != null && node.settings().replicas().callersOf(group).stream()
                .anyMatch(caller -> org.bftws.tier.NestedSequences.callerUuid(caller).equalsIgnoreCase(clientUuid.trim()));
    }

    private static void checkCreationTime(org.bftws.config.GroupConfig group, String clientUuid) throws RmFault {
        java.time.Duration limit = group.protocol().sequenceIdleLimit();
        if (!group.bftEnabled() || limit.isZero() || clientUuid == null) {
            return;
        }
        java.util.OptionalLong created = org.bftws.rm.SequenceIds.clientCreationTime(clientUuid);
        if (created.isEmpty()) {
            throw RmFault.createSequenceRefused("client UUID " + clientUuid + " is not a version 7 UUID (RFC 9562),"
                    + " which carries its creation time; service " + group.service() + " expires idle sequences"
                    + " and needs it (BFT-WS clients make one)");
        }
        long offBy = created.getAsLong() - System.currentTimeMillis();
        if (Math.abs(offBy) > limit.toMillis() / 2) {
            throw RmFault.createSequenceRefused("client UUID " + clientUuid + " was made " + Math.abs(offBy) / 1000
                    + " s " + (offBy > 0 ? "ahead of" : "behind") + " this replica's clock, more than half the"
                    + " sequenceIdleLimit of service " + group.service() + "; set the client's clock right");
        }
    }

    private static void terminate(MessageContext in, MessageContext out, BftwsNode node, String id) throws RmFault {
        if (in.getProperty(org.bftws.axis2.delivery.ServiceDelivery.DELIVERING) != null) {
            terminateOrdered(in, out, node, id);
            return;
        }
        InboundSequence seq = node.destination().sequences().find(id).orElse(null);
        if (seq != null) {
            SequenceOwnership.check(in, id, node); // another party must not end a client's sequence
            seq.close();
            RmHeaders.addAcknowledgement(out.getEnvelope(), seq.acknowledgement());
            node.destination().terminate(id);
        } else if (node.destination().sequences().findByOffered(id).isEmpty()) {
            throw RmFault.unknownSequence(id);
        }
        out.getEnvelope().getBody().addChild(RmBodies.identified("TerminateSequenceResponse", id, 0));
        out.setWSAAction(Wsrm.TERMINATE_SEQUENCE_RESPONSE);
    }

    /**
     * A replicated service's TerminateSequence executing in the total order (every replica at the same point; the
     * core removes the sequence's last-reply entry as it reports the result): this node forgets its WS-RM state of
     * the sequence. Ownership was checked when the request was accepted (or, relayed, by its client's signature).
     */
    private static void terminateOrdered(MessageContext in, MessageContext out, BftwsNode node, String id)
            throws RmFault {
        RmHeaders.SequenceHeader h = RmHeaders.sequence(in.getEnvelope());
        if (h == null || !h.id().equals(id)) {
            throw RmFault.invalidMessage("TerminateSequence names sequence " + id + " in its body but is ordered on "
                    + (h == null ? "no sequence" : "sequence " + h.id()) + "; it ends nothing");
        }
        InboundSequence seq = node.destination().sequences().find(id).orElse(null);
        if (seq != null) {
            seq.close();
            RmHeaders.addAcknowledgement(out.getEnvelope(), seq.acknowledgement());
        }
        node.destination().terminateOrdered(id, h.number());
        out.getEnvelope().getBody().addChild(RmBodies.identified("TerminateSequenceResponse", id, 0));
        out.setWSAAction(Wsrm.TERMINATE_SEQUENCE_RESPONSE);
    }

    private static InboundSequence known(MessageContext in, BftwsNode node, String id) throws RmFault {
        InboundSequence seq = node.destination().sequences().find(id).orElseThrow(() -> RmFault.unknownSequence(id));
        SequenceOwnership.check(in, id, node);
        return seq;
    }
}
