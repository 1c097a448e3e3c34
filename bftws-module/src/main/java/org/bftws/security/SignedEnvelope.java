package org.bftws.security;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.engine.Handler;
import org.apache.axis2.engine.Phase;
import org.apache.axis2.kernel.TransportUtils;

/**
 * A signed envelope together with the bytes it was signed as (or, in the {@code mac} profile's bytes form, the bytes its
 * MACs cover), for the transport to send as they are.
 *
 * <p>Why: WSS4J signs a DOM. Walking the signed DOM back into an AXIOM tree and serialising that tree again took a
 * quarter of a client's CPU in the echo benchmark (JFR, 8 clients, {@code mac}: 10.5 % the walk, 17.7 % the
 * serialisation, against 38 % for the signing itself). The signed DOM is now serialised once; the message's
 * envelope becomes a tree parsed from those bytes only if something reads it, and the client's
 * {@code MulticastSender} and a replica's reply capture send the bytes themselves.
 *
 * <p>Only when nothing can change the envelope after it was signed: the security handler is the last handler of the
 * out-flow (the transport sender comes next), and the message is plain UTF-8 SOAP (no MTOM, no attachments). A
 * consumer uses the bytes only while the message's envelope is still the very one signed here.
 */
public record SignedEnvelope(SOAPEnvelope envelope, byte[] bytes) {

    /** Message context property: the {@link SignedEnvelope} of an outgoing message. */
    public static final String PROPERTY = "bftws.signedEnvelope";
    /** Message context property set by the security handler while it runs last in its flow. */
    public static final String SIGNED_LAST = "bftws.signedLast";

    /** The bytes to send for {@code mc}, when its envelope is the one signed and nothing touched it since. */
    public static Optional<byte[]> bytesToSend(MessageContext mc) {
        return mc.getProperty(PROPERTY) instanceof SignedEnvelope s && s.envelope() == mc.getEnvelope()
                ? Optional.of(s.bytes()) : Optional.empty();
    }

    /**
     * A transport sender that sends {@link #bytesToSend} as they are when a message has them (the client's
     * multicast, a replica's reply capture): only for those may a MAC cover the bytes themselves ({@code mac}
     * profile's bytes form), since any other sender serialises the tree again.
     */
    public interface BytesSender {
    }

    /**
     * Whether what the transport sends for {@code mc} is exactly the bytes a security handler running now leaves in
     * a {@link SignedEnvelope}: it runs last, the message is plain UTF-8 SOAP, and its sender is a {@link BytesSender}.
     */
    public static boolean sentAsBytes(MessageContext mc) {
        return keepsBytes(mc) && mc.getTransportOut() != null
                && mc.getTransportOut().getSender() instanceof BytesSender;
    }

    /** Whether the envelope {@code mc} carries now is the one the transport sends: see the class comment. */
    static boolean keepsBytes(MessageContext mc) {
        return Boolean.TRUE.equals(mc.getProperty(SIGNED_LAST)) && !mc.isDoingMTOM() && !mc.isDoingSwA()
                && StandardCharsets.UTF_8.name().equalsIgnoreCase(TransportUtils.getCharSetEncoding(mc));
    }

    /**
     * Whether {@code current} is the last handler that {@code mc}'s flow runs: the last of its phase, with no
     * handler in a later phase of the execution chain.
     */
    public static boolean runsLast(MessageContext mc, Handler current) {
        List<Handler> chain = mc.getExecutionChain();
        int at = mc.getCurrentHandlerIndex();
        if (chain == null || at < 0 || at >= chain.size()) {
            return false;
        }
        if (chain.get(at) instanceof Phase phase) {
            List<Handler> inPhase = phase.getHandlers();
            if (inPhase.isEmpty() || inPhase.get(inPhase.size() - 1) != current) {
                return false;
            }
        } else if (chain.get(at) != current) {
            return false;
        }
        for (int k = at + 1; k < chain.size(); k++) {
            if (!(chain.get(k) instanceof Phase later) || later.getHandlerCount() > 0) {
                return false;
            }
        }
        return true;
    }
}
