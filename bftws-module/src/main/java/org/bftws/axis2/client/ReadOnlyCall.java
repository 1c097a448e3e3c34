package org.bftws.axis2.client;

import org.bftws.axis2.rm.RmSource;
import java.util.Iterator;
import java.util.UUID;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.bftws.axis2.headers.ReadOnlyHeader;
import org.bftws.axis2.rm.RmHeaders;
import org.bftws.config.GroupConfig;
import org.bftws.config.OperationConfig;
import org.bftws.rm.OutboundSequence;
import org.bftws.security.SecurityRefusal;
import org.bftws.axis2.security.SecurityRuntime;

/**
 * A client's read-only request in flight (docs/client.md, "Read-only operations"): the {@code OutHandler}
 * marked it {@code bftws:ReadOnly} and gave it no message number; the {@link MulticastSender} sends it once to every
 * node and accepts 2f+1 identical replies. If it cannot, {@link #toOrdered} turns the very message into the ordered
 * request the call would have been: marker removed, the sequence's next number, a fresh {@code wsa:MessageID} (so no
 * reply to the read, replayed by anyone, can count for the ordered request) and a fresh request authenticator.
 *
 * @param operation what replicas.xml says about the operation (its read timeout)
 * @param group     the group called
 * @param source    the client's sequences
 */
public record ReadOnlyCall(OperationConfig operation, GroupConfig group, RmSource source) {

    /** Message context property: the {@link ReadOnlyCall} of a request sent read-only. */
    public static final String PROPERTY = "bftws.readOnlyCall";
    /**
     * Options property: {@code false} sends an operation declared read-only as an ordered request anyway (a caller
     * that needs the read ordered with its own writes in one sequence, or wants no unordered path at all).
     */
    public static final String ENABLED = "bftws.readOnly";

    private static final String WSA_NS = "http://www.w3.org/2005/08/addressing";

    /** The message as an ordered request of the client's sequence, authenticated again; its sequence. */
    public OutboundSequence toOrdered(MessageContext mc) throws AxisFault {
        SOAPEnvelope envelope = mc.getEnvelope();
        ReadOnlyHeader.remove(envelope);
        mc.removeProperty(PROPERTY);
        OutboundSequence seq = source.sequenceFor(mc);
        long n = seq.nextMessageNumber();
        RmHeaders.addSequence(envelope, new RmHeaders.SequenceHeader(seq.id(), n));
        mc.setProperty(MulticastSender.SEQUENCE, seq);
        mc.setProperty(MulticastSender.MESSAGE_NUMBER, n);
        String messageId = "urn:uuid:" + UUID.randomUUID();
        mc.setMessageID(messageId);
        setMessageIdHeader(envelope, messageId);
        try {
            SecurityRuntime.of(mc.getConfigurationContext()).protectAgain(mc, group);
        } catch (SecurityRefusal e) {
            throw new AxisFault("bftws: the read-only request to " + group.endpoint() + " could not be authenticated"
                    + " again as an ordered request: " + e.getMessage(), e);
        }
        return seq;
    }

    private static void setMessageIdHeader(SOAPEnvelope envelope, String messageId) {
        SOAPHeader header = envelope.getHeader();
        if (header == null) {
            return;
        }
        for (Iterator<OMElement> it = header.getChildrenWithName(new javax.xml.namespace.QName(WSA_NS, "MessageID"));
             it.hasNext(); ) {
            it.next().setText(messageId);
        }
    }
}
