package org.bftws.server.gateway;

import java.io.ByteArrayOutputStream;

import org.apache.axiom.soap.SOAPBody;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axiom.soap.SOAPFault;
import org.apache.axiom.soap.SOAPFaultCode;
import org.apache.axiom.soap.SOAPFaultReason;

/**
 * A SOAP fault the gateway itself returns to its caller (the request could not be forwarded, or the group decided
 * no reply), as opposed to a fault the group decided, which the caller gets as the replicas wrote it. The code says
 * whose the problem is: {@link Code#SENDER} the caller's request, {@link Code#RECEIVER} the gateway or the group.
 */
final class CallerFault extends Exception {

    /** The SOAP fault codes the gateway uses; each has its SOAP 1.1 and 1.2 spelling. */
    enum Code {
        SENDER("Client", "Sender"),
        RECEIVER("Server", "Receiver"),
        MUST_UNDERSTAND("MustUnderstand", "MustUnderstand"),
        VERSION_MISMATCH("VersionMismatch", "VersionMismatch");

        final String soap11;
        final String soap12;

        Code(String soap11, String soap12) {
            this.soap11 = soap11;
            this.soap12 = soap12;
        }
    }

    private final Code code;
    private final int httpStatus;

    CallerFault(Code code, String reason) {
        this(code, 500, reason);
    }

    /** {@code httpStatus}: 500 for every SOAP fault (SOAP 1.1 over HTTP, WS-I BP), 404 for an unknown service. */
    CallerFault(Code code, int httpStatus, String reason) {
        super(reason);
        this.code = code;
        this.httpStatus = httpStatus;
    }

    Code code() {
        return code;
    }

    int httpStatus() {
        return httpStatus;
    }

    /** The fault as a SOAP envelope of {@code soap}'s version, UTF-8. */
    byte[] envelope(SoapVersion soap) {
        SOAPFactory f = soap.factory();
        SOAPEnvelope envelope = f.getDefaultEnvelope();
        SOAPBody body = envelope.getBody();
        SOAPFault fault = f.createSOAPFault(body);
        SOAPFaultCode faultCode = f.createSOAPFaultCode(fault);
        String prefix = envelope.getNamespace().getPrefix();
        if (soap == SoapVersion.SOAP11) {
            faultCode.setText(prefix + ":" + code.soap11);
        } else {
            f.createSOAPFaultValue(faultCode).setText(prefix + ":" + code.soap12);
        }
        SOAPFaultReason reason = f.createSOAPFaultReason(fault);
        if (soap == SoapVersion.SOAP11) {
            reason.setText(getMessage());
        } else {
            f.createSOAPFaultText(reason).setText(getMessage());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            envelope.serialize(out);
        } catch (javax.xml.stream.XMLStreamException e) {
            throw new IllegalStateException("writing a fault into memory cannot fail", e);
        }
        return out.toByteArray();
    }
}
