package org.bftws.axis2.security;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;

import javax.servlet.http.HttpServletResponse;

import org.apache.axis2.Constants;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.kernel.OutTransportInfo;
import org.apache.axis2.kernel.TransportUtils;
import org.apache.axis2.kernel.http.HTTPConstants;
import org.apache.axis2.transport.http.server.AxisHttpResponse;
import org.bftws.security.RefusalReason;

/**
 * The answers a node gives to a request that failed authentication, written straight to the request's HTTP exchange
 * with no Axis2 fault context, out-fault flow, DOM or signature: a SOAP fault made once per SOAP version and
 * {@link RefusalReason}, unsigned (nobody was authenticated to MAC it for, and a signature would be public-key work
 * anybody could buy), whose code is the reason's WS-Security fault code and whose reason text is
 * {@code BFT-WS security refused the message: } and the reason's short name, nothing of the request echoed; HTTP 500
 * (what SOAP clients expect of a fault) with {@code Connection: close}. Over the per-address refusal rate the
 * exchange is ended with an empty 429 and {@code Connection: close} instead ({@link #closeUnanswered}).
 * <p>
 * A client never counts such a fault as a node's answer (it carries no MAC or signature of that node): it only stops
 * waiting for that node on that call.
 */
public final class RefusalAnswers {
    /** The fault's reason text before the reason's short name. */
    public static final String REASON_PREFIX = "BFT-WS security refused the message: ";
    private static final String SOAP11_TYPE = "text/xml; charset=UTF-8";
    private static final String SOAP12_TYPE = "application/soap+xml; charset=UTF-8";
    private static final Map<RefusalReason, byte[]> SOAP11 = new EnumMap<>(RefusalReason.class);
    private static final Map<RefusalReason, byte[]> SOAP12 = new EnumMap<>(RefusalReason.class);

    static {
        for (RefusalReason r : RefusalReason.values()) {
            SOAP11.put(r, soap11(r));
            SOAP12.put(r, soap12(r));
        }
    }

    private RefusalAnswers() {
    }

    /** The constant fault for {@code reason} (a copy). */
    public static byte[] envelope(boolean soap11, RefusalReason reason) {
        return (soap11 ? SOAP11 : SOAP12).get(reason).clone();
    }

    /** Whether {@code request} came over an exchange this class can answer (HTTP, the response not yet written). */
    public static boolean canAnswer(MessageContext request) {
        return request.getProperty(MessageContext.TRANSPORT_OUT) instanceof OutputStream
                && !TransportUtils.isResponseWritten(request);
    }

    /**
     * Writes the constant fault for {@code reason} to the exchange {@code request} arrived on, in the request's SOAP
     * version, and closes the connection after it.
     *
     * @throws IOException when the client is gone (nothing more to do: the flow ends anyway)
     */
    public static void answer(MessageContext request, RefusalReason reason) throws IOException {
        boolean soap11 = request.isSOAP11();
        OutTransportInfo info = (OutTransportInfo) request.getProperty(Constants.OUT_TRANSPORT_INFO);
        statusAndClose(request, info, 500);
        if (info != null) {
            info.setContentType(soap11 ? SOAP11_TYPE : SOAP12_TYPE);
        }
        TransportUtils.setResponseWritten(request, true);
        OutputStream out = (OutputStream) request.getProperty(MessageContext.TRANSPORT_OUT);
        out.write((soap11 ? SOAP11 : SOAP12).get(reason));
        out.flush();
    }

    /**
     * Ends the exchange {@code request} arrived on without an answer: an empty 429 (Too Many Requests) with
     * {@code Connection: close}, the least Axis2's HTTP transports let a handler say, after which they close the
     * connection.
     */
    public static void closeUnanswered(MessageContext request) {
        statusAndClose(request, (OutTransportInfo) request.getProperty(Constants.OUT_TRANSPORT_INFO), 429);
        TransportUtils.setResponseWritten(request, true);
    }

    /** SimpleHTTPServer's response is the out-transport info; under AxisServlet it is the servlet response. */
    private static void statusAndClose(MessageContext request, OutTransportInfo info, int status) {
        if (info instanceof AxisHttpResponse r) {
            r.setStatus(status);
            r.setHeader(HTTPConstants.HEADER_CONNECTION, HTTPConstants.HEADER_CONNECTION_CLOSE);
        } else if (request.getProperty(HTTPConstants.MC_HTTP_SERVLETRESPONSE) instanceof HttpServletResponse r) {
            r.setStatus(status);
            r.setHeader(HTTPConstants.HEADER_CONNECTION, HTTPConstants.HEADER_CONNECTION_CLOSE);
        }
    }

    private static byte[] soap11(RefusalReason r) {
        return ("<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body>"
                + "<soapenv:Fault><faultcode xmlns:wsse=\"" + RefusalReason.WSSE_NS + "\">wsse:"
                + r.faultCode().getLocalPart() + "</faultcode><faultstring>" + reasonText(r) + "</faultstring>"
                + "</soapenv:Fault></soapenv:Body></soapenv:Envelope>").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] soap12(RefusalReason r) {
        return ("<soapenv:Envelope xmlns:soapenv=\"http://www.w3.org/2003/05/soap-envelope\"><soapenv:Body>"
                + "<soapenv:Fault><soapenv:Code><soapenv:Value>soapenv:Sender</soapenv:Value><soapenv:Subcode>"
                + "<soapenv:Value xmlns:wsse=\"" + RefusalReason.WSSE_NS + "\">wsse:" + r.faultCode().getLocalPart()
                + "</soapenv:Value></soapenv:Subcode></soapenv:Code><soapenv:Reason><soapenv:Text xml:lang=\"en\">"
                + reasonText(r) + "</soapenv:Text></soapenv:Reason></soapenv:Fault></soapenv:Body>"
                + "</soapenv:Envelope>").getBytes(StandardCharsets.UTF_8);
    }

    /** The fault's reason text: the prefix and the reason's short name (XML-escaped; the names are constants). */
    static String reasonText(RefusalReason r) {
        return (REASON_PREFIX + r.shortName()).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
