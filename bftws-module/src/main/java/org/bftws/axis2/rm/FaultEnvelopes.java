package org.bftws.axis2.rm;

import java.io.ByteArrayOutputStream;

import javax.xml.stream.XMLStreamException;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axiom.soap.SOAPFault;
import org.apache.axiom.soap.SOAPFaultCode;
import org.apache.axiom.soap.SOAPFaultReason;
import org.apache.axis2.context.MessageContext;
import org.bftws.rm.ReplyCache.CachedReply;

/**
 * Serialised SOAP faults for exchanges answered outside any Axis2 flow (hold timeouts, terminated sequences): the
 * SOAP version of the request, the wsrm fault name as code (1.1) or subcode (1.2), and the reason text.
 */
public final class FaultEnvelopes {

    private FaultEnvelopes() {
    }

    public static CachedReply serialise(MessageContext request, RmFault fault) {
        boolean soap11 = request == null || request.isSOAP11();
        SOAPFactory f = soap11 ? OMAbstractFactory.getSOAP11Factory() : OMAbstractFactory.getSOAP12Factory();
        SOAPEnvelope env = f.getDefaultFaultEnvelope();
        SOAPFault soapFault = env.getBody().getFault();
        SOAPFaultCode code = soapFault.getCode();
        SOAPFaultReason reason = soapFault.getReason();
        if (soap11) {
            code.setValue(fault.rmCode());
            reason.setText(fault.getReason());
        } else {
            code.setValue(fault.getFaultCode());
            f.createSOAPFaultSubCode(code).setValue(fault.rmCode());
            f.createSOAPFaultText(reason).setText(fault.getReason());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            env.serializeAndConsume(out);
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot serialise a fault envelope", e);
        }
        String type = soap11 ? "text/xml; charset=UTF-8" : "application/soap+xml; charset=UTF-8";
        return new CachedReply(out.toByteArray(), type, true);
    }
}
