package org.bftws.axis2.rm;

import java.util.List;

import javax.xml.namespace.QName;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.bftws.rm.Wsrm;
import org.bftws.security.RefusalLog;

/**
 * A WS-RM 1.1 fault (spec section 4): SOAP 1.2 Sender/Receiver with the wsrm fault name as subcode, or, for SOAP
 * 1.1 (see {@link #adaptTo}), the wsrm fault name as faultcode. The reason always says what went wrong and what
 * the sender can do about it.
 */
public final class RmFault extends AxisFault {
    private static final long serialVersionUID = 1L;
    private static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
    private static final QName SENDER = new QName(SOAP12, "Sender", "soapenv");
    private static final QName RECEIVER = new QName(SOAP12, "Receiver", "soapenv");

    private final QName rmCode;

    private RmFault(String name, boolean sender, String reason) {
        this(new QName(Wsrm.NS, name, Wsrm.PREFIX), sender, reason);
    }

    private RmFault(QName code, boolean sender, String reason) {
        super(sender ? SENDER : RECEIVER, List.of(code), reason, null);
        this.rmCode = code;
    }

    /** BFT-WS's own fault names (not in WS-RM 1.1), in namespace {@value Wsrm#BFTWS_NS}. */
    private static QName bftws(String name) {
        return new QName(Wsrm.BFTWS_NS, name, "bftws");
    }

    /** Fault names after which a sender should retransmit the same message later. */
    public static final java.util.Set<QName> RETRY_LATER = java.util.Set.of(bftws("ReplyNotYetAvailable"),
            bftws("MessageBeyondWindow"));

    /** The wsrm fault name, e.g. {@code wsrm:UnknownSequence}. */
    public QName rmCode() {
        return rmCode;
    }

    /**
     * Logs this fault as the refusal of {@code mc} in the node's {@link RefusalLog} (one line, repeats from one peer
     * summarised; retry-later faults at INFO, the others at WARN) and readies it to be thrown from a handler without
     * Axis2 logging it again with its stack trace.
     */
    public RmFault logRefusal(MessageContext mc, long refusedSoFar) {
        RefusalLog log = RefusalLog.of(mc.getConfigurationContext());
        String reason = rmCode.getPrefix() + ":" + rmCode.getLocalPart();
        String detail = reason + ": " + getReason() + " (to "
                + (mc.getAxisService() == null ? "?" : mc.getAxisService().getName()) + ", action "
                + mc.getWSAAction() + ")";
        String counter = "RM refusals: " + refusedSoFar;
        if (RETRY_LATER.contains(rmCode)) {
            log.refusedForNow(RefusalLog.peer(mc), reason, detail, counter);
        } else {
            log.refused(RefusalLog.peer(mc), reason, detail, counter);
        }
        return RefusalLog.alreadyLogged(adaptTo(mc));
    }

    /** Puts the wsrm fault name where SOAP 1.1 has room for it: the faultcode. */
    public RmFault adaptTo(MessageContext mc) {
        if (mc != null && mc.isSOAP11()) {
            setFaultCode(rmCode);
        }
        return this;
    }

    public static RmFault unknownSequence(String id) {
        return new RmFault("UnknownSequence", true, "The value of wsrm:Identifier is not a known Sequence identifier: "
                + id + " (create a sequence with CreateSequence first; terminated sequences are forgotten)");
    }

    public static RmFault sequenceTerminated(String id, String why) {
        return new RmFault("SequenceTerminated", true, "The Sequence " + id + " has been terminated: " + why);
    }

    public static RmFault sequenceClosed(String id) {
        return new RmFault("SequenceClosed", true, "The Sequence " + id + " is closed and accepts no new messages");
    }

    public static RmFault invalidAcknowledgement(String id, String why) {
        return new RmFault("InvalidAcknowledgement", true, "Invalid acknowledgement for sequence " + id + ": " + why);
    }

    public static RmFault createSequenceRefused(String why) {
        return new RmFault("CreateSequenceRefused", true, "The Create Sequence request has been refused: " + why);
    }

    /** The service requires WS-RM and the message lacks {@code what}. */
    public static RmFault wsrmRequired(String what) {
        return new RmFault("WSRMRequired", true, "The RM Destination requires the use of WSRM: " + what);
    }

    /** Message number beyond the buffering window: refused now, the sender retransmits it later. */
    public static RmFault beyondWindow(String id, long n, long delivered, long window) {
        return new RmFault(bftws("MessageBeyondWindow"), false, "Message " + n + " of sequence " + id
                + " is more than " + window + " messages ahead of the last delivered one (" + delivered
                + "); it was not buffered, retransmit it once the earlier messages are acknowledged");
    }

    /** A message that is not valid WS-RM (missing or malformed elements). */
    public static RmFault invalidMessage(String why) {
        return new RmFault("InvalidMessage", true, "Invalid WS-ReliableMessaging message: " + why);
    }

    /** A request not delivered yet (hold timeout, or still being processed): retransmit it later. */
    public static RmFault notYetAvailable(String why) {
        return new RmFault(bftws("ReplyNotYetAvailable"), false, why);
    }

    /** A request delivered long ago whose reply the cache no longer holds: final, retransmitting will not help. */
    public static RmFault replyForgotten(String why) {
        return new RmFault(bftws("ReplyForgotten"), false, why);
    }
}
