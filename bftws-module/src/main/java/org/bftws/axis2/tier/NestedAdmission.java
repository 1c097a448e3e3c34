package org.bftws.axis2.tier;

import org.bftws.axis2.rm.FaultEnvelopes;
import org.bftws.axis2.rm.RmDestination;
import org.bftws.axis2.rm.RmFault;
import org.bftws.rm.RmCounters;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPBody;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.AddressingConstants;
import org.apache.axis2.context.MessageContext;
import org.bftws.axis2.client.CanonicalBody;
import org.bftws.axis2.delivery.HttpExchange;
import org.bftws.tier.NestedRequestGate;
import org.bftws.tier.NestedSequences;
import org.bftws.config.GroupConfig;
import org.bftws.core.Request;
import org.bftws.core.RequestId;
import org.bftws.rm.InboundSequence;
import org.bftws.security.AuthenticatedParty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a replica meets nested requests (paper 3.4): {@link InHandler} asks it about every request on a caller
 * group's virtual sequence or signed by a caller replica, before the request may enter ordering. Held copies keep
 * their HTTP exchange suspended; when a quorum forms, the held identical copies join the admitted request (each is
 * answered with its reply) and differing ones get a fault; copies held longer than the hold timeout get the
 * retry-later fault (they stay counted).
 */
public final class NestedAdmission {
    private static final Logger LOG = LoggerFactory.getLogger(NestedAdmission.class);


    /** What InHandler does next: hold the copy, or take the ordinary path and then let {@code join} join it. */
    public record Outcome(boolean held, List<MessageContext> join) {
    }

    private final NestedRequestGate<MessageContext> gate;
    private final RmDestination destination;
    private final RmCounters counters;
    private final Duration hold;

    public NestedAdmission(GroupConfig callee, List<GroupConfig> callers, long window, RmDestination destination,
                    RmCounters counters) {
        this.gate = new NestedRequestGate<>(callee.endpoint(), callers, (int) Math.min(window, Integer.MAX_VALUE));
        this.destination = destination;
        this.counters = counters;
        this.hold = callee.protocol().clientTimeout();
        for (GroupConfig caller : callers) {
            // A caller replica that restarted installs the caller group's stable checkpoint and executes again what
            // the group ordered after it: up to a watermark window of requests, whose nested calls (one per request
            // assumed) it sends again and needs the replies of. Kept in memory only (not in checkpoints).
            destination.keepReplies(NestedSequences.sequenceId(caller, callee.endpoint()),
                    caller.protocol().watermarkWindow());
        }
    }

    /** Starts expiring admitted copies that waited too long, on {@code timer}, once the replica role runs. */
    public void start(ScheduledExecutorService timer) {
        timer.scheduleWithFixedDelay(this::expire, 100, 100, TimeUnit.MILLISECONDS);
    }

    public boolean concerns(String sequenceId, MessageContext mc) {
        return gate.concerns(sequenceId, signer(mc));
    }

    /** The caller group whose replica {@code signer} is, or null. */
    public GroupConfig callerGroupOf(String signer) {
        return gate.callerGroupOf(signer);
    }

    /** A virtual sequence answers duplicates only after the gate compared them (GlobalInHandler must not). */
    public boolean isVirtualSequence(String sequenceId) {
        return gate.isVirtualSequence(sequenceId);
    }

    /** Judges one copy; RmFault when it is refused. */
    public Outcome admit(String sequenceId, long n, MessageContext mc) throws AxisFault {
        String signer = signer(mc);
        mc.getEnvelope().build();
        mc.setProperty(RmDestination.NESTED_COPY, Boolean.TRUE);
        NestedRequestGate.Verdict<MessageContext> v = gate.admit(sequenceId, n, signer, content(mc), mc,
                System.nanoTime());
        if (v instanceof NestedRequestGate.Refused<MessageContext> r) {
            throw RmFault.invalidMessage("nested request refused: " + r.reason());
        }
        if (v instanceof NestedRequestGate.Held<MessageContext>) {
            LOG.debug("holding the copy of nested message {} of {} from {}", n, sequenceId, signer);
            return new Outcome(true, List.of());
        }
        if (v instanceof NestedRequestGate.Admitted<MessageContext> a) {
            LOG.debug("admitted nested message {} of {} with the copy from {}", n, sequenceId, signer);
            for (MessageContext differing : a.refused()) {
                counters.refused.incrementAndGet();
                answer(differing, RmFault.invalidMessage("nested request refused: this copy of message " + n + " of "
                        + sequenceId + " differs from the one the caller group's quorum sent, which was admitted"));
            }
            return new Outcome(false, a.join());
        }
        return new Outcome(false, List.of());
    }

    /** The held identical copies of an admitted request wait for its reply (or get it from the last-reply table). */
    public void join(InboundSequence seq, long n, List<MessageContext> copies) throws AxisFault {
        for (MessageContext copy : copies) {
            if (!destination.join(seq.id(), n, copy) && !destination.answerHeldFromCache(seq.id(), n, copy)) {
                answer(copy, RmFault.notYetAvailable("message " + n + " of " + seq.id() + " was admitted and is "
                        + "being ordered; retransmit it"));
            }
        }
    }

    /**
     * The invoker executed {@code request}. On a caller group's virtual sequence the gate stops counting copies up
     * to its number (see {@link NestedRequestGate#executed}); copies still held for it that are identical get its
     * reply, the others a fault.
     */
    public void executed(Request request) {
        RequestId id = request.id();
        if (!gate.isVirtualSequence(id.client())) {
            return;
        }
        try {
            settle(id, request);
        } catch (RuntimeException e) { // the invoker thread must go on executing
            LOG.warn("could not settle the held copies of executed nested message {} of {}: {}", id.number(),
                    id.client(), e.toString(), e);
        }
    }

    private void settle(RequestId id, Request request) {
        NestedRequestGate.Settled<MessageContext> settled = gate.executed(id.client(), id.number(),
                () -> content(request));
        for (MessageContext copy : settled.join()) {
            if (!destination.answerHeldFromCache(id.client(), id.number(), copy)) {
                answer(copy, RmFault.notYetAvailable("message " + id.number() + " of " + id.client()
                        + " was executed; retransmit it for its reply"));
            }
        }
        for (MessageContext copy : settled.refused()) {
            counters.refused.incrementAndGet();
            answer(copy, RmFault.invalidMessage("nested request refused: the group executed message "
                    + id.number() + " of " + id.client() + " without this copy (it differs, or is for an earlier "
                    + "number)"));
        }
    }

    private void expire() {
        try {
            for (MessageContext mc : gate.expire(System.nanoTime() - hold.toNanos())) {
                counters.holdTimeouts.incrementAndGet();
                answer(mc, RmFault.notYetAvailable("fewer than p+1 replicas of the calling group sent this nested "
                        + "request within " + hold.toMillis() + " ms; retransmit it"));
            }
        } catch (RuntimeException e) {
            LOG.warn("could not expire held nested copies: {}", e.toString(), e);
        }
    }

    private static void answer(MessageContext mc, RmFault fault) {
        HttpExchange x = HttpExchange.of(mc);
        if (x != null) {
            x.answer(FaultEnvelopes.serialise(mc, fault));
        }
    }

    private static String signer(MessageContext mc) {
        return mc.getProperty(AuthenticatedParty.PROPERTY) instanceof AuthenticatedParty p ? p.name() : null;
    }

    /**
     * Whether {@code relayed}, a nested request's body another callee replica sent (its caller replica's signature
     * already verified), has the content this replica's gate admitted for its id: then the core may count it as
     * admitted here, whichever caller replica's copy completed the quorum at the sender (see LocalAdmissions).
     */
    public boolean admitsRelayedCopy(Request relayed) {
        RequestId id = relayed.id();
        if (!gate.isVirtualSequence(id.client())) {
            return false;
        }
        byte[] content = content(relayed);
        return content != null && gate.admittedWith(id.client(), id.number(), content);
    }

    /** The content of a nested request's signed bytes, as {@link #content(MessageContext)}; null if unreadable. */
    private static byte[] content(Request request) {
        RequestId id = request.id();
        try {
            SOAPEnvelope envelope = OMXMLBuilderFactory.createSOAPModelBuilder(
                    new ByteArrayInputStream(request.payload()), null).getSOAPEnvelope();
            String action = headerText(envelope, "Action");
            String messageId = headerText(envelope, "MessageID");
            if (action == null || messageId == null) {
                return null;
            }
            return content(action, messageId, envelope.getBody());
        } catch (RuntimeException e) { // AXIOM reports malformed XML as unchecked exceptions
            LOG.info("nested message {} of {} could not be read: {}", id.number(), id.client(), e.toString());
            return null;
        }
    }

    /** The text of the first WS-Addressing (final) header named {@code local}, as Axis2's addressing module reads it. */
    private static String headerText(SOAPEnvelope envelope, String local) {
        if (envelope.getHeader() == null) {
            return null;
        }
        for (Iterator<OMElement> it = envelope.getHeader().getChildElements(); it.hasNext(); ) {
            OMElement h = it.next();
            if (local.equals(h.getLocalName()) && h.getNamespace() != null
                    && AddressingConstants.Final.WSA_NAMESPACE.equals(h.getNamespace().getNamespaceURI())) {
                return h.getText();
            }
        }
        return null;
    }

    /** What identical copies share: the action, the MessageID and the body's canonical form (no signatures). */
    static byte[] content(MessageContext mc) {
        return content(mc.getWSAAction(), mc.getMessageID(), mc.getEnvelope().getBody());
    }

    private static byte[] content(String action, String messageId, SOAPBody body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes((action + "\n" + messageId + "\n").getBytes(StandardCharsets.UTF_8));
        out.writeBytes(CanonicalBody.of(body));
        return out.toByteArray();
    }
}
