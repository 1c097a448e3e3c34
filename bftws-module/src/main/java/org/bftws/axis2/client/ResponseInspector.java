package org.bftws.axis2.client;

import org.bftws.voting.NodeReply;
import java.io.ByteArrayInputStream;
import java.util.List;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFault;
import org.apache.axiom.soap.SOAPFaultSubCode;
import org.apache.axis2.kernel.TransportUtils;
import org.bftws.axis2.rm.RmFault;
import org.bftws.axis2.rm.RmHeaders;

/**
 * Reads what the RM source needs from a node's response: its acknowledgements and whether it is a WS-RM fault that
 * asks for a later retransmission (hold timeout, window) rather than a final answer.
 */
final class ResponseInspector {

    /**
     * @param retry  true for a fault that means "not yet, send it again later"
     * @param rmCode the fault's WS-RM (or SOAP) code, null when the response is no fault
     */
    record Inspection(List<RmHeaders.Ack> acks, boolean retry, String fault, QName rmCode) {
    }

    private ResponseInspector() {
    }

    static Inspection inspect(NodeReply reply) {
        if (reply.isEmpty()) {
            return new Inspection(List.of(), false, null, null);
        }
        String charset = reply.contentType() == null ? null : TransportUtils.getCharSetEncoding(reply.contentType());
        return inspect(OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(reply.body()),
                charset == null ? "UTF-8" : charset).getSOAPEnvelope());
    }

    /** What {@link #inspect(NodeReply)} says of a reply whose envelope was read already. */
    static Inspection inspect(SOAPEnvelope env) {
        List<RmHeaders.Ack> acks;
        try {
            acks = RmHeaders.acknowledgements(env);
        } catch (RmFault e) {
            acks = List.of();
        }
        SOAPFault fault = env.getBody().getFault();
        if (fault == null) {
            return new Inspection(acks, false, null, null);
        }
        QName code = fault.getCode() == null ? null : fault.getCode().getValueAsQName();
        SOAPFaultSubCode sub = fault.getCode() == null ? null : fault.getCode().getSubCode();
        QName rmCode = sub != null ? sub.getValueAsQName() : code;
        String reason = fault.getReason() == null ? "" : fault.getReason().getText();
        boolean retry = rmCode != null && RmFault.RETRY_LATER.stream().anyMatch(q -> q.getNamespaceURI()
                .equals(rmCode.getNamespaceURI()) && q.getLocalPart().equals(rmCode.getLocalPart()));
        return new Inspection(acks, retry, rmCode + ": " + reason, rmCode);
    }

    /**
     * Whether {@code reply} is a wsrm:SequenceTerminated fault: the replicas decided that the sequence ended (or
     * expired), so nothing more can be delivered on it.
     */
    static boolean endsSequence(NodeReply reply) {
        try {
            QName rmCode = inspect(reply).rmCode();
            return rmCode != null && org.bftws.rm.Wsrm.NS.equals(rmCode.getNamespaceURI())
                    && "SequenceTerminated".equals(rmCode.getLocalPart());
        } catch (RuntimeException notSoap) {
            return false;
        }
    }
}
