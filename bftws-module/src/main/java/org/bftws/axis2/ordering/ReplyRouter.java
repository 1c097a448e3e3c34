package org.bftws.axis2.ordering;

import org.bftws.ordering.ClientReplies;
import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.engine.AxisEngine;
import org.apache.axis2.util.MessageContextBuilder;
import org.bftws.axis2.delivery.HttpExchange;
import org.bftws.axis2.delivery.PendingRequest;
import org.bftws.axis2.delivery.PendingRequests;
import org.bftws.axis2.delivery.ReplyCapture;
import org.bftws.core.Reply;
import org.bftws.core.RequestId;
import org.bftws.rm.ReplyCache;
import org.bftws.rm.ReplyCache.CachedReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the HTTP exchanges waiting for a request: right after the invoker executed it ({@link #executed}), or
 * once the core released a reply from its last-reply table for a retransmission. The reply sent is this replica's own signed envelope, captured when
 * it executed the request; a replica that got the reply through state transfer has only the reply's body, and
 * builds the envelope again through the out-flow (acknowledgement, view, signature). Exchanges are written on a
 * thread of their own, never under the core's lock.
 */
public final class ReplyRouter implements ClientReplies {
    private static final Logger LOG = LoggerFactory.getLogger(ReplyRouter.class);

    private final PendingRequests pending;
    private final ReplyCache envelopes;
    private final ReplyCapture capture = new ReplyCapture();
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "bftws-replies");
        t.setDaemon(true);
        return t;
    });

    /** Told the id of a sequence the core refused a request on because it ended: the RM layer forgets it again. */
    private final java.util.function.Consumer<String> endedSequences;

    ReplyRouter(PendingRequests pending, ReplyCache envelopes, java.util.function.Consumer<String> endedSequences) {
        this.pending = pending;
        this.envelopes = envelopes;
        this.endedSequences = endedSequences;
    }

    @Override
    public void reply(Reply reply) {
        RequestId id = reply.request();
        if (Reply.endedReason(reply.result()).isEmpty() && pending.find(id.client(), id.number()).isEmpty()) {
            // the usual case: the invoker answered its exchanges when it executed the request ({@link #executed}),
            // and nobody else waits; a retransmission arriving later is answered from the cache
            return;
        }
        writer.execute(() -> answer(reply));
    }

    /**
     * The core expired these sequences (idle for longer than the limit): requests on them still waiting here get the
     * expired fault (the ordered decision refuses them wherever they are ordered, and the core forgot those it held
     * unordered), and the RM layer forgets the sequences, in order.
     */
    @Override
    public void expired(java.util.List<String> sequences) {
        writer.execute(() -> {
            for (String s : sequences) {
                for (PendingRequest r : pending.removeSequence(s)) {
                    CachedReply envelope = endedAnswer(r.message(), new RequestId(s, r.messageNumber()), Reply.EXPIRED);
                    for (HttpExchange x : r.close()) {
                        x.answer(envelope);
                    }
                }
                endedSequences.accept(s);
            }
        });
    }

    /**
     * The invoker just executed request {@code id} with reply {@code envelope}: the exchanges waiting for it here are
     * answered at once, on the caller's thread (answering only hands the bytes to each exchange's parked HTTP worker),
     * instead of after a round through the core and this router's thread. The core's reply for it then finds nobody
     * waiting; it still answers retransmissions from the core's last-reply table.
     */
    void executed(RequestId id, CachedReply envelope) {
        PendingRequest waiting = pending.find(id.client(), id.number()).orElse(null);
        if (waiting == null || envelope == null) {
            return;
        }
        pending.remove(waiting);
        for (HttpExchange x : waiting.close()) {
            x.answer(envelope);
        }
    }

    private void answer(Reply reply) {
        RequestId id = reply.request();
        PendingRequest waiting = pending.find(id.client(), id.number()).orElse(null);
        java.util.Optional<String> ended = Reply.endedReason(reply.result());
        // A tentative refusal may yet be undone: the sequence's state here goes only when it ended for good.
        boolean endedForGood = ended.isPresent() && !reply.tentative();
        if (waiting == null) {
            if (endedForGood) {
                endedSequences.accept(id.client());
            }
            return; // nobody waits here: a retransmission will be answered from the cache
        }
        // What a rebuilt reply states: the view, and whether the answer is tentative (OutHandler adds the headers).
        waiting.message().setProperty(TotalOrderInvoker.VIEW, reply.view());
        waiting.message().setProperty(TotalOrderInvoker.TENTATIVE, reply.tentative());
        CachedReply envelope = ended.isPresent() ? null : envelopes.get(id.client(), id.number()).orElse(null);
        if (ended.isPresent()) {
            envelope = endedAnswer(waiting.message(), id, ended.get());
        } else if (envelope == null) {
            envelope = rebuild(waiting.message(), reply.result());
        }
        pending.remove(waiting);
        List<HttpExchange> exchanges = waiting.close();
        if (endedForGood) {
            // forgotten before the caller hears of it: whoever reads the answer finds no state of the sequence left
            endedSequences.accept(id.client());
        }
        for (HttpExchange x : exchanges) {
            x.answer(envelope);
        }
    }

    /**
     * The answer to a request on a sequence that ended, the same at every correct replica (the client votes on it):
     * to its TerminateSequence (a retransmission) the TerminateSequenceResponse again, to anything else a
     * wsrm:SequenceTerminated fault saying so; signed through the out-flow like every reply.
     */
    private CachedReply endedAnswer(MessageContext request, RequestId id, String why) {
        if (org.bftws.rm.Wsrm.TERMINATE_SEQUENCE.equals(request.getWSAAction())) {
            OMElement response = org.bftws.axis2.rm.RmBodies.identified("TerminateSequenceResponse", id.client(), 0);
            return rebuild(request, response.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return rebuildFault(request, org.bftws.axis2.rm.RmFault.sequenceTerminated(id.client(), endedReason(why)
                + ", so message " + id.number() + " is not executed (it may be a replay; after an expiry it may also"
                + " be a retransmission of a message that executed before); create a new sequence"));
    }

    /** The fault's reason for a request on a sequence that ended, expired or is not valid yet (core's reasons). */
    static String endedReason(String why) {
        return switch (why) {
            case Reply.EXPIRED -> "the sequence expired by an ordered decision of the replicas: it was idle (or"
                    + " created) longer ago than the group's sequenceIdleLimit";
            case Reply.NOT_YET_VALID -> "the sequence's creation time lies further ahead of the replicas' agreed time"
                    + " than the group's sequenceIdleLimit: check the client's clock";
            default -> "the sequence was " + why + " by an ordered decision of the replicas";
        };
    }

    private CachedReply rebuildFault(MessageContext request, org.bftws.axis2.rm.RmFault fault) {
        try {
            MessageContext out = MessageContextBuilder.createOutMessageContext(request);
            org.apache.axiom.soap.SOAPFactory f = request.isSOAP11()
                    ? org.apache.axiom.om.OMAbstractFactory.getSOAP11Factory()
                    : org.apache.axiom.om.OMAbstractFactory.getSOAP12Factory();
            SOAPEnvelope envelope = f.getDefaultFaultEnvelope();
            org.apache.axiom.soap.SOAPFault soapFault = envelope.getBody().getFault();
            if (request.isSOAP11()) {
                soapFault.getCode().setValue(fault.rmCode());
                soapFault.getReason().setText(fault.getReason());
            } else {
                soapFault.getCode().setValue(fault.getFaultCode());
                f.createSOAPFaultSubCode(soapFault.getCode()).setValue(fault.rmCode());
                f.createSOAPFaultText(soapFault.getReason()).setText(fault.getReason());
            }
            out.setEnvelope(envelope);
            out.setProcessingFault(true);
            out.setTransportOut(capture.description());
            AxisEngine.send(out);
            return (CachedReply) out.getOperationContext().getProperty(ReplyCapture.CAPTURED);
        } catch (AxisFault | RuntimeException e) {
            LOG.warn("could not build the fault for {}: {}", request.getMessageID(), e.toString());
            return null;
        }
    }

    /** The reply envelope for {@code request} with {@code body} (a reply body kept in the last-reply table). */
    private CachedReply rebuild(MessageContext request, byte[] body) {
        try {
            MessageContext out = MessageContextBuilder.createOutMessageContext(request);
            SOAPEnvelope envelope = out.getEnvelope() != null ? out.getEnvelope()
                    : org.apache.axiom.om.OMAbstractFactory.getSOAP11Factory().getDefaultEnvelope();
            if (body.length > 0) {
                OMElement element = OMXMLBuilderFactory.createOMBuilder(new ByteArrayInputStream(body)).getDocumentElement();
                element.build();
                envelope.getBody().addChild(element);
            }
            out.setEnvelope(envelope);
            out.setTransportOut(capture.description());
            AxisEngine.send(out);
            return (CachedReply) out.getOperationContext().getProperty(ReplyCapture.CAPTURED);
        } catch (AxisFault | RuntimeException e) {
            LOG.warn("could not rebuild the reply to {}: {}", request.getMessageID(), e.toString());
            return null;
        }
    }

    void stop() {
        writer.shutdownNow();
    }
}
