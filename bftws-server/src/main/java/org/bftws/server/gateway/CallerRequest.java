package org.bftws.server.gateway;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMException;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axiom.soap.SOAPHeaderBlock;
import org.apache.axiom.soap.SOAPModelBuilder;

/**
 * A caller's plain SOAP request, read from its HTTP bytes: its SOAP version, its action (SOAP 1.1's SOAPAction
 * header, SOAP 1.2's {@code action} media-type parameter, else a WS-Addressing Action header in the envelope) and the
 * one element of its Body, which is what goes to the group. The caller's other headers are not forwarded: the
 * gateway is the group's client and writes its own (WS-Addressing, WS-RM, authentication); a header marked
 * mustUnderstand would be silently dropped, so it is refused with a MustUnderstand fault instead.
 *
 * @param soap    the envelope's SOAP version
 * @param action  the action; a request without one is refused
 * @param payload the Body's element, fully built (the caller's bytes are no longer needed)
 */
record CallerRequest(SoapVersion soap, String action, OMElement payload) {

    private static final Pattern ACTION_PARAMETER =
            Pattern.compile(";\\s*action\\s*=\\s*(\"([^\"]*)\"|([^;\\s]*))", Pattern.CASE_INSENSITIVE);
    private static final String WSA_NAMESPACE = "http://www.w3.org/2005/08/addressing";

    /** Reads a request; every problem is a Sender (Client) fault, in the version the caller used, that says what. */
    static CallerRequest read(byte[] body, String contentType, String soapActionHeader) throws CallerFault {
        SoapVersion announced = SoapVersion.ofContentType(contentType);
        if (contentType == null || !(contentType.toLowerCase(Locale.ROOT).startsWith("text/xml")
                || contentType.toLowerCase(Locale.ROOT).startsWith("application/soap+xml"))) {
            throw new CallerFault(CallerFault.Code.SENDER, 415, "bftws gateway: a request must be a SOAP envelope"
                    + " with Content-Type text/xml (SOAP 1.1) or application/soap+xml (SOAP 1.2), not "
                    + (contentType == null ? "none" : "'" + contentType + "'"));
        }
        if (body.length == 0) {
            throw new CallerFault(CallerFault.Code.SENDER, "bftws gateway: the request has no body; POST a SOAP envelope");
        }
        SOAPEnvelope envelope;
        try {
            SOAPModelBuilder builder = OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(body),
                    charset(contentType));
            envelope = builder.getSOAPEnvelope();
            envelope.build();
        } catch (OMException | IllegalArgumentException e) {
            throw new CallerFault(CallerFault.Code.SENDER, "bftws gateway: the request is not a SOAP envelope: "
                    + rootMessage(e));
        }
        SoapVersion soap = SoapVersion.ofNamespace(envelope.getNamespace().getNamespaceURI());
        if (soap == null) {
            throw new CallerFault(CallerFault.Code.VERSION_MISMATCH, "bftws gateway: unknown SOAP envelope namespace "
                    + envelope.getNamespace().getNamespaceURI());
        }
        if (soap != announced) {
            throw new CallerFault(CallerFault.Code.SENDER, "bftws gateway: a " + (soap == SoapVersion.SOAP11
                    ? "SOAP 1.1" : "SOAP 1.2") + " envelope must be sent as " + soap.mediaType + ", not "
                    + contentType);
        }
        refuseMustUnderstand(envelope.getHeader());
        List<OMElement> children = new ArrayList<>();
        for (Iterator<OMElement> it = envelope.getBody().getChildElements(); it.hasNext(); ) {
            children.add(it.next());
        }
        if (children.size() != 1) {
            throw new CallerFault(CallerFault.Code.SENDER, "bftws gateway: the SOAP Body must hold exactly one element"
                    + " (document/literal), it holds " + children.size());
        }
        String action = soap == SoapVersion.SOAP11 ? unquote(soapActionHeader) : actionParameter(contentType);
        if (action.isEmpty()) {
            action = wsaAction(envelope.getHeader());
        }
        if (action.isEmpty()) {
            // the replicas find an operation by its action (wsa:Action): without one they can only refuse it
            throw new CallerFault(CallerFault.Code.SENDER, "bftws gateway: the request names no action: a SOAP 1.1"
                    + " request needs the SOAPAction header, a SOAP 1.2 request the action parameter of its"
                    + " Content-Type (the operation's soapAction in the service's WSDL)");
        }
        return new CallerRequest(soap, action, children.get(0));
    }

    private static void refuseMustUnderstand(SOAPHeader header) throws CallerFault {
        if (header == null) {
            return;
        }
        List<String> refused = new ArrayList<>();
        for (Iterator<SOAPHeaderBlock> it = header.getHeadersToProcess(null); it.hasNext(); ) {
            SOAPHeaderBlock block = it.next();
            if (block.getMustUnderstand()) {
                refused.add("{" + block.getNamespaceURI() + "}" + block.getLocalName());
            }
        }
        if (!refused.isEmpty()) {
            throw new CallerFault(CallerFault.Code.MUST_UNDERSTAND, "bftws gateway: it forwards only the Body and"
                    + " understands no header of the caller, but these are marked mustUnderstand: "
                    + String.join(", ", refused));
        }
    }

    private static String wsaAction(SOAPHeader header) {
        if (header == null) {
            return "";
        }
        OMElement action = header.getFirstChildWithName(new javax.xml.namespace.QName(WSA_NAMESPACE, "Action"));
        return action == null ? "" : action.getText().trim();
    }

    private static String unquote(String header) {
        if (header == null) {
            return "";
        }
        String s = header.trim();
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }

    private static String actionParameter(String contentType) {
        Matcher m = ACTION_PARAMETER.matcher(contentType);
        if (!m.find()) {
            return "";
        }
        return m.group(2) != null ? m.group(2) : m.group(3);
    }

    private static String charset(String contentType) {
        Matcher m = Pattern.compile(";\\s*charset\\s*=\\s*\"?([^;\"\\s]+)", Pattern.CASE_INSENSITIVE)
                .matcher(contentType);
        return m.find() ? m.group(1) : "UTF-8";
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }
}
