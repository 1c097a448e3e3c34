package org.bftws.axis2.rm;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axiom.soap.SOAPHeaderBlock;
import org.bftws.rm.AckRanges;
import org.bftws.rm.InboundSequence;
import org.bftws.rm.Wsrm;
import org.bftws.wire.MalformedXml;

/**
 * Reads and writes the WS-RM 1.1 header blocks: wsrm:Sequence, wsrm:SequenceAcknowledgement, wsrm:AckRequested.
 * Reading marks the blocks as processed, which is what lets Axis2's mustUnderstand check pass (wsrm:Sequence is
 * always sent with mustUnderstand="true").
 */
public final class RmHeaders {

    static final QName SEQUENCE = new QName(Wsrm.NS, "Sequence");
    static final QName SEQUENCE_ACK = new QName(Wsrm.NS, "SequenceAcknowledgement");
    static final QName ACK_REQUESTED = new QName(Wsrm.NS, "AckRequested");
    static final QName IDENTIFIER = new QName(Wsrm.NS, "Identifier");
    static final QName MESSAGE_NUMBER = new QName(Wsrm.NS, "MessageNumber");
    static final QName RANGE = new QName(Wsrm.NS, "AcknowledgementRange");
    static final QName NACK = new QName(Wsrm.NS, "Nack");
    static final QName FINAL = new QName(Wsrm.NS, "Final");

    /** A wsrm:Sequence header: this message is number {@code number} of sequence {@code id}. */
    public record SequenceHeader(String id, long number) {
    }

    /** A wsrm:SequenceAcknowledgement: either ranges or nacks. */
    public record Ack(String id, List<AckRanges.Range> ranges, List<Long> nacks, boolean closed) {
    }

    private RmHeaders() {
    }

    /** The message's wsrm:Sequence header, or null when it has none. Malformed headers are faults. */
    public static SequenceHeader sequence(SOAPEnvelope env) throws RmFault {
        return parsed(() -> readSequence(env));
    }

    private static SequenceHeader readSequence(SOAPEnvelope env) throws RmFault {
        SOAPHeaderBlock block = first(env, SEQUENCE);
        if (block == null) {
            return null;
        }
        block.setProcessed();
        String id = text(block, IDENTIFIER, "wsrm:Sequence");
        String number = text(block, MESSAGE_NUMBER, "wsrm:Sequence");
        long n;
        try {
            n = Long.parseLong(number.trim());
        } catch (NumberFormatException e) {
            throw RmFault.invalidMessage("wsrm:MessageNumber '" + number + "' is not a number");
        }
        if (n < 1) {
            throw RmFault.invalidMessage("wsrm:MessageNumber must be at least 1, got " + n);
        }
        return new SequenceHeader(id, n);
    }

    /** Every wsrm:SequenceAcknowledgement header of the message. */
    public static List<Ack> acknowledgements(SOAPEnvelope env) throws RmFault {
        return parsed(() -> readAcknowledgements(env));
    }

    private static List<Ack> readAcknowledgements(SOAPEnvelope env) throws RmFault {
        List<Ack> out = new ArrayList<>();
        SOAPHeader header = env.getHeader();
        if (header == null) {
            return out;
        }
        for (Iterator<OMElement> it = header.getChildrenWithName(SEQUENCE_ACK); it.hasNext(); ) {
            SOAPHeaderBlock block = (SOAPHeaderBlock) it.next();
            block.setProcessed();
            String id = text(block, IDENTIFIER, "wsrm:SequenceAcknowledgement");
            List<AckRanges.Range> ranges = new ArrayList<>();
            for (Iterator<OMElement> r = block.getChildrenWithName(RANGE); r.hasNext(); ) {
                OMElement range = r.next();
                try {
                    ranges.add(new AckRanges.Range(Long.parseLong(range.getAttributeValue(new QName("Lower"))),
                            Long.parseLong(range.getAttributeValue(new QName("Upper")))));
                } catch (RuntimeException e) {
                    throw RmFault.invalidAcknowledgement(id, "bad wsrm:AcknowledgementRange: " + e.getMessage());
                }
            }
            List<Long> nacks = new ArrayList<>();
            for (Iterator<OMElement> r = block.getChildrenWithName(NACK); r.hasNext(); ) {
                try {
                    nacks.add(Long.parseLong(r.next().getText().trim()));
                } catch (NumberFormatException e) {
                    throw RmFault.invalidAcknowledgement(id, "bad wsrm:Nack: " + e.getMessage());
                }
            }
            out.add(new Ack(id, ranges, nacks, block.getFirstChildWithName(FINAL) != null));
        }
        return out;
    }

    /** Identifiers named by wsrm:AckRequested headers. */
    public static List<String> ackRequests(SOAPEnvelope env) throws RmFault {
        return parsed(() -> readAckRequests(env));
    }

    private static List<String> readAckRequests(SOAPEnvelope env) throws RmFault {
        List<String> out = new ArrayList<>();
        SOAPHeader header = env.getHeader();
        if (header == null) {
            return out;
        }
        for (Iterator<OMElement> it = header.getChildrenWithName(ACK_REQUESTED); it.hasNext(); ) {
            SOAPHeaderBlock block = (SOAPHeaderBlock) it.next();
            block.setProcessed();
            out.add(text(block, IDENTIFIER, "wsrm:AckRequested"));
        }
        return out;
    }

    /** What a reader returns; it may throw an RmFault. */
    interface Reader<T> {
        T read() throws RmFault;
    }

    /**
     * {@code reader}'s result, or an InvalidMessage fault when the XML it walked turned out not to be well formed:
     * AXIOM parses a received envelope lazily, while the reader walks it ({@link MalformedXml}).
     */
    static <T> T parsed(Reader<T> reader) throws RmFault {
        try {
            return reader.read();
        } catch (RuntimeException e) {
            if (!MalformedXml.isParserRefusal(e)) {
                throw e;
            }
            throw RmFault.invalidMessage("the message is not well-formed XML: " + e.getMessage());
        }
    }

    public static void addSequence(SOAPEnvelope env, SequenceHeader s) {
        SOAPFactory f = (SOAPFactory) env.getOMFactory();
        SOAPHeaderBlock block = header(env).addHeaderBlock("Sequence", f.createOMNamespace(Wsrm.NS, Wsrm.PREFIX));
        block.setMustUnderstand(true);
        f.createOMElement(IDENTIFIER, block).setText(s.id());
        f.createOMElement(MESSAGE_NUMBER, block).setText(Long.toString(s.number()));
    }

    public static void addAcknowledgement(SOAPEnvelope env, InboundSequence.Acknowledgement ack) {
        SOAPFactory f = (SOAPFactory) env.getOMFactory();
        SOAPHeaderBlock block = header(env).addHeaderBlock("SequenceAcknowledgement",
                f.createOMNamespace(Wsrm.NS, Wsrm.PREFIX));
        f.createOMElement(IDENTIFIER, block).setText(ack.sequenceId());
        for (AckRanges.Range r : ack.ranges()) {
            OMElement range = f.createOMElement(RANGE, block);
            range.addAttribute("Upper", Long.toString(r.upper()), null);
            range.addAttribute("Lower", Long.toString(r.lower()), null);
        }
        if (ack.ranges().isEmpty()) {
            f.createOMElement(new QName(Wsrm.NS, "None"), block);
        }
        if (ack.closed()) {
            f.createOMElement(FINAL, block);
        }
    }

    public static void addAckRequested(SOAPEnvelope env, String sequenceId) {
        SOAPFactory f = (SOAPFactory) env.getOMFactory();
        SOAPHeaderBlock block = header(env).addHeaderBlock("AckRequested", f.createOMNamespace(Wsrm.NS, Wsrm.PREFIX));
        f.createOMElement(IDENTIFIER, block).setText(sequenceId);
    }

    private static SOAPHeader header(SOAPEnvelope env) {
        SOAPHeader h = env.getHeader();
        return h != null ? h : ((SOAPFactory) env.getOMFactory()).createSOAPHeader(env);
    }

    private static SOAPHeaderBlock first(SOAPEnvelope env, QName name) {
        SOAPHeader header = env.getHeader();
        if (header == null) {
            return null;
        }
        Iterator<OMElement> it = header.getChildrenWithName(name);
        return it.hasNext() ? (SOAPHeaderBlock) it.next() : null;
    }

    static String text(OMElement parent, QName child, String where) throws RmFault {
        OMElement e = parent.getFirstChildWithName(child);
        if (e == null || e.getText().isBlank()) {
            throw RmFault.invalidMessage(where + " has no " + child.getLocalPart());
        }
        return e.getText().trim();
    }
}
