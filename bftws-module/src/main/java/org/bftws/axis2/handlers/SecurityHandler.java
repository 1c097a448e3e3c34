package org.bftws.axis2.handlers;

import org.bftws.axis2.security.RefusalAnswers;
import org.bftws.axis2.security.SecurityRuntime;
import org.bftws.security.AuthenticatedParty;
import org.bftws.security.MessageAuthenticator;
import org.bftws.security.RefusalCounter;
import org.bftws.security.RefusalLog;
import org.bftws.security.RefusalReason;
import org.bftws.security.SecurityRefusal;
import org.bftws.security.SignedEnvelope;
import java.util.Iterator;
import java.util.Optional;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axiom.soap.SOAPHeaderBlock;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.context.OperationContext;
import org.apache.axis2.wsdl.WSDLConstants;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.config.GroupConfig;
import org.bftws.config.SecurityProfile;

/**
 * The module's handler in Axis2's {@code Security} phase, in all four flows. Outgoing messages are protected and
 * incoming ones authenticated as the profile of the group they belong to says ({@link SecurityRuntime}); {@code none}
 * passes them through. A verified message carries its sender as {@link AuthenticatedParty#PROPERTY}.
 * <p>
 * A refused message is counted and logged (bounded, {@link RefusalLog}). A request a node refuses costs it no more:
 * its exchange gets the constant unsigned fault of {@link RefusalAnswers} (the reason's short name, nothing echoed),
 * or, beyond the sender address's refusal rate, an empty answer and a closed connection, and the flow ends there: no
 * fault context, no out-fault flow, no signature. Any other fault to a request that carries no authenticated party
 * (Axis2's own: a body that is not XML, the size refusal, addressing and dispatch faults) goes out unsigned too. A
 * reply a client refuses ends in an AxisFault whose reason says why (WS-Security fault code), as before.
 */
public class SecurityHandler extends AbstractHandler {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SecurityHandler.class);

    @Override
    public InvocationResponse invoke(MessageContext message) throws AxisFault {
        SecurityRuntime runtime;
        try {
            runtime = SecurityRuntime.of(message.getConfigurationContext());
        } catch (RuntimeException e) {
            // fail closed: a node that was meant to check signatures must not run without them
            throw new AxisFault("BFT-WS security cannot start: " + e.getMessage(), e);
        }
        boolean incoming = message.getFLOW() == MessageContext.IN_FLOW
                || message.getFLOW() == MessageContext.IN_FAULT_FLOW;
        if (SecurityRuntime.forServiceWithoutModule(message, this)) { // its requests and its replies
            return InvocationResponse.CONTINUE;
        }
        if (!incoming && replyStaysLocal(message)) {
            // Signing a reply nobody receives costs time for nothing: a 10 MB get_state took seconds to sign.
            return InvocationResponse.CONTINUE;
        }
        Optional<GroupConfig> group = incoming ? runtime.groupForIncoming(message) : runtime.groupForOutgoing(message);
        SecurityProfile profile = group.map(g -> g.security().profile()).orElse(SecurityProfile.NONE);
        if (profile == SecurityProfile.NONE) {
            return InvocationResponse.CONTINUE;
        }
        if (!incoming && AuthenticatedParty.isFaultToUnauthenticated(message)) {
            // nobody to MAC it for, and a signature would be public-key work anybody could buy (AuthenticatedParty)
            runtime.refusals().answeredUnsigned();
            return InvocationResponse.CONTINUE;
        }
        MessageAuthenticator authenticator = runtime.authenticator(profile).orElseThrow(() -> new AxisFault(
                "BFT-WS security: group " + group.get().service() + " uses profile " + profile.name().toLowerCase()
                        + ", which this node cannot apply (no party name set, or no authenticator registered for it)"));
        try {
            if (incoming) {
                AuthenticatedParty sender = authenticator.authenticate(message, group.get());
                message.setProperty(AuthenticatedParty.PROPERTY, sender);
                markSecurityHeadersProcessed(message);
            } else {
                // the signed bytes may be sent as they are only if no handler can change the envelope after this one
                message.setProperty(SignedEnvelope.SIGNED_LAST, SignedEnvelope.runsLast(message, this));
                try {
                    authenticator.protect(message, group.get());
                } finally {
                    message.removeProperty(SignedEnvelope.SIGNED_LAST);
                }
            }
        } catch (SecurityRefusal refusal) {
            long n = runtime.refusals().record(refusal.reason());
            RefusalLog log = RefusalLog.of(message.getConfigurationContext());
            String peer = RefusalLog.peer(message);
            String counter = "security refusals " + refusal.reason() + ": " + n;
            if (incoming && message.isServerSide() && RefusalAnswers.canAnswer(message)) {
                counter += answerRefusal(message, refusal.reason(), runtime, peer);
                log.refused(peer, refusal.reason().shortName(), refusal.getMessage() + " (" + describe(message) + ")",
                        counter);
                return InvocationResponse.ABORT;
            }
            log.refused(peer, refusal.reason().shortName(), refusal.getMessage() + " (" + describe(message) + ")",
                    counter);
            String text = refusal.getMessage();
            if (message.getFLOW() == MessageContext.IN_FAULT_FLOW && message.getEnvelope().hasFault()) {
                // keep what the peer said, marked as unauthenticated, rather than hide it
                text += "; the unauthenticated fault said: "
                        + message.getEnvelope().getBody().getFault().getReason().getText();
            }
            throw RefusalLog.alreadyLogged(new AxisFault(text, refusal.reason().faultCode()));
        }
        return InvocationResponse.CONTINUE;
    }

    /**
     * Ends a refused request's exchange: the constant unsigned fault while its address is within its refusal rate,
     * else an empty answer and a closed connection; counted either way. Returns what the log line adds about it (the
     * refusal is logged once, by the caller, so repeats stay one summary per peer and reason). The flow stops here.
     */
    private static String answerRefusal(MessageContext request, RefusalReason reason, SecurityRuntime runtime,
                                        String peer) {
        if (!runtime.refusalBudget().tryAnswer(peer)) {
            RefusalAnswers.closeUnanswered(request);
            return "; " + RefusalCounter.CLOSED_OVER_RATE + ": " + runtime.refusals().closedOverRate();
        }
        runtime.refusals().answeredUnsigned();
        try {
            RefusalAnswers.answer(request, reason);
        } catch (java.io.IOException e) {
            LOG.debug("could not write the refusal to {} (client gone?): {}", peer, e.toString());
        }
        return "";
    }

    /** Whether {@code reply} answers a request the node made to its own service (never sent anywhere). */
    private static boolean replyStaysLocal(MessageContext reply) throws AxisFault {
        OperationContext op = reply.getOperationContext();
        MessageContext request = op == null ? null : op.getMessageContext(WSDLConstants.MESSAGE_LABEL_IN_VALUE);
        return request != null && request != reply
                && Boolean.TRUE.equals(request.getProperty(SecurityRuntime.REPLY_STAYS_LOCAL));
    }

    /** wsse:Security is mustUnderstand; having verified it, this handler is the one that understood it. */
    private static void markSecurityHeadersProcessed(MessageContext message) {
        SOAPHeader header = message.getEnvelope().getHeader();
        if (header == null) {
            return;
        }
        for (Iterator<SOAPHeaderBlock> it = header.getHeaderBlocksWithNSURI(RefusalReason.WSSE_NS).iterator();
             it.hasNext(); ) {
            it.next().setProcessed();
        }
    }

    private static String describe(MessageContext message) {
        return (message.getAxisService() == null ? "" : "to " + message.getAxisService().getName() + ", ")
                + "action " + message.getWSAAction();
    }
}
