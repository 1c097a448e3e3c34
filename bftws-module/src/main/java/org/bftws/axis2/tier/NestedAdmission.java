package org.bftws.axis2.tier;

import org.bftws.axis2.rm.FaultEnvelopes;
import org.bftws.axis2.rm.RmDestination;
import org.bftws.axis2.rm.RmFault;
import org.bftws.rm.RmCounters;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axis2.AxisFault;
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

    /**
     * Copies of nested requests the gate holds now, waiting for p+1 identical ones (those admitted wait as held
     * exchanges of the destination instead): each leaves by being admitted, settled or its hold timeout.
     */
    public int heldCopies() {
        return gate.heldCopies();
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
        byte[] content = content(mc.getEnvelope());
        mc.setProperty(RmDestination.REQUEST_IDENTITY, content); // ordered by its content, not by its bytes
        NestedRequestGate.Verdict<MessageContext> v = gate.admit(sequenceId, n, signer, content, mc,
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
        NestedRequestGate.Settled<MessageContext> settled = gate.executed(id.client(), id.number(), request.digest());
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
     * Whether {@code relayed}, a nested request's body another callee replica sent (named by its content, see
     * {@link #identify}), is the request this replica's gate admitted for its id: then the core may count it as
     * admitted here, whichever caller replica's copy completed the quorum at the sender (see LocalAdmissions).
     */
    public boolean admitsRelayedCopy(Request relayed) {
        RequestId id = relayed.id();
        return gate.isVirtualSequence(id.client()) && gate.admittedWith(id.client(), id.number(), relayed.digest());
    }

    /**
     * {@code received}, a request's bytes from another replica or the journal, named as this replica orders it: a
     * caller group's nested request by its content (what its gate compares, {@link Request#identified}), so that the
     * copy another caller replica signed is the same request; any other request, or one that cannot be read, by its
     * bytes ({@code received} itself).
     */
    public Request identify(Request received) {
        if (!gate.isVirtualSequence(received.id().client())) {
            return received;
        }
        byte[] content = content(received);
        return content == null ? received : received.identifiedBy(content);
    }

    /** The content of a nested request's bytes, as {@link #content(SOAPEnvelope)}; null if unreadable. */
    private static byte[] content(Request request) {
        RequestId id = request.id();
        try {
            return content(OMXMLBuilderFactory.createSOAPModelBuilder(
                    new ByteArrayInputStream(request.payload()), null).getSOAPEnvelope());
        } catch (RuntimeException e) { // AXIOM reports malformed XML as unchecked exceptions
            LOG.info("nested message {} of {} could not be read: {}", id.number(), id.client(), e.toString());
            return null;
        }
    }

    /**
     * What identical copies share: every header block but the sender's own authentication (each caller replica signs
     * or MACs its copy itself) without the wsu:Id its signer gave it, then the body's content, in canonical form. Correct caller
     * replicas send alike all of it (the WS-Addressing action and MessageID, the wsrm:Sequence position, any header
     * the service may read), so callee replicas that execute different copies execute the same request.
     */
    static byte[] content(SOAPEnvelope envelope) {
        byte[] headers = CanonicalBody.ofHeaders(envelope.getHeader(), block -> !isSendersAuthentication(block));
        byte[] body = CanonicalBody.of(envelope.getBody());
        ByteArrayOutputStream out = new ByteArrayOutputStream(8 + headers.length + body.length);
        out.write(headers.length >>> 24);
        out.write(headers.length >>> 16);
        out.write(headers.length >>> 8);
        out.write(headers.length);
        out.writeBytes(headers);
        out.writeBytes(body);
        return out.toByteArray();
    }

    /** The sender's own authentication: a WS-Security header, or the {@code mac} profile's request authenticator. */
    private static boolean isSendersAuthentication(OMElement block) {
        String ns = block.getNamespace() == null ? null : block.getNamespace().getNamespaceURI();
        return "Security".equals(block.getLocalName()) && WSSE.equals(ns)
                || "RequestAuthenticator".equals(block.getLocalName()) && MAC.equals(ns);
    }

    private static final String WSSE =
            "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
    private static final String MAC = "urn:bftws:mac:1";
}
