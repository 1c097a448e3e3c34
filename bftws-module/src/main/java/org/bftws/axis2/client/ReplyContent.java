package org.bftws.axis2.client;

import org.bftws.voting.NodeReply;
import java.io.ByteArrayInputStream;
import java.util.Locale;

import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAP11Version;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFault;
import org.apache.axiom.soap.SOAPVersion;
import org.apache.axis2.kernel.TransportUtils;

/**
 * What the Voter needs of one node's reply, read the way Axis2 will read the decided reply (same bytes, same
 * charset, SOAP version from the media type), so that what is voted on is what the application gets.
 *
 * @param canonical the canonical bytes of the Body's content ({@link CanonicalBody})
 * @param view      the view the reply states ({@link ReplyView}), 0 when it states none
 * @param fault     the Body is a SOAP fault (f+1 identical faults are an answer like any other)
 * @param empty     an HTTP 2xx without a body (the answer to a one-way message): nothing to authenticate, nothing
 *                  the application will read, counted as a result of its own
 * @param relatesTo the reply's {@code wsa:RelatesTo} (the message id of the request it answers), null without one
 * @param envelope  the envelope all of this was read from, null when empty: what the reply's authenticity is checked on
 * @param charset   the charset the reply was read with (its content type's), null when it names none
 * @param tentative the reply carries {@code bftws:Tentative} ({@link org.bftws.axis2.headers.TentativeHeader}): executed
 *                  before its batch committed
 */
record ReplyContent(byte[] canonical, int view, boolean fault, boolean empty, String relatesTo, SOAPEnvelope envelope,
                    String charset, boolean tentative) {

    /** WS-Addressing 1.0 and the 2004/08 submission, whose RelatesTo a reply may carry. */
    private static final java.util.List<String> ADDRESSING = java.util.List.of("http://www.w3.org/2005/08/addressing",
            "http://schemas.xmlsoap.org/ws/2004/08/addressing");

    private static final String SOAP11_TYPE = "text/xml";
    private static final String SOAP12_TYPE = "application/soap+xml";
    private static final int SUMMARY_CHARS = 160;

    /** Reads a reply; IllegalArgumentException, with a reason, for anything that is not a readable SOAP reply. */
    static ReplyContent read(NodeReply reply) {
        if (reply.isEmpty()) {
            if (reply.status() / 100 == 2) {
                return new ReplyContent(new byte[0], 0, false, true, null, null, null, false);
            }
            throw new IllegalArgumentException("HTTP " + reply.status() + " with an empty body");
        }
        String type = reply.contentType() == null ? "" : reply.contentType().toLowerCase(Locale.ROOT);
        boolean soap11 = type.startsWith(SOAP11_TYPE);
        if (!soap11 && !type.startsWith(SOAP12_TYPE)) {
            throw new IllegalArgumentException("Content-Type '" + reply.contentType() + "' is not " + SOAP11_TYPE
                    + " or " + SOAP12_TYPE);
        }
        try {
            SOAPEnvelope envelope = parse(reply);
            SOAPVersion version = envelope.getVersion();
            if ((version == SOAP11Version.getSingleton()) != soap11) {
                throw new IllegalArgumentException("Content-Type '" + reply.contentType() + "' does not match the "
                        + "envelope's SOAP version " + version.getEnvelopeURI());
            }
            return new ReplyContent(CanonicalBody.of(envelope.getBody()), ReplyView.of(envelope),
                    envelope.getBody().hasFault(), false, relatesTo(envelope), envelope, charset(reply),
                    org.bftws.axis2.headers.TentativeHeader.present(envelope));
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            // AXIOM reports XML that is not well formed, or not SOAP, as OMException (and kin) while it builds
            throw new IllegalArgumentException("not a SOAP envelope: " + e.getMessage(), e);
        }
    }

    /** {@link #read}, or null when the reply is not a readable SOAP reply (the Voter then reads it and says why). */
    static ReplyContent readable(NodeReply reply) {
        try {
            return read(reply);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The first reply-type {@code wsa:RelatesTo} of the header, trimmed; null when there is none. */
    private static String relatesTo(SOAPEnvelope envelope) {
        if (envelope.getHeader() == null) {
            return null;
        }
        for (java.util.Iterator<org.apache.axiom.om.OMElement> it = envelope.getHeader().getChildElements();
             it.hasNext(); ) {
            org.apache.axiom.om.OMElement h = it.next();
            String type = h.getAttributeValue(new javax.xml.namespace.QName("RelationshipType"));
            if ("RelatesTo".equals(h.getLocalName()) && ADDRESSING.contains(h.getNamespaceURI())
                    && (type == null || type.endsWith("/reply") || type.endsWith("Reply"))) {
                return h.getText().trim();
            }
        }
        return null;
    }

    /** A short text of what the reply says (its fault reason or the start of its Body), for error messages. */
    static String summary(NodeReply reply) {
        if (reply.isEmpty()) {
            return "(empty)";
        }
        try {
            SOAPEnvelope envelope = parse(reply);
            SOAPFault fault = envelope.getBody().getFault();
            String text = fault != null ? "fault '" + (fault.getReason() == null ? "" : fault.getReason().getText())
                    + "'" : String.valueOf(envelope.getBody().getFirstElement());
            text = text.replaceAll("\\s+", " ");
            return text.length() > SUMMARY_CHARS ? text.substring(0, SUMMARY_CHARS) + "..." : text;
        } catch (RuntimeException e) {
            return "(unreadable)";
        }
    }

    /** The charset the reply's content type names, null when it names none. */
    private static String charset(NodeReply reply) {
        String type = reply.contentType() == null ? "" : reply.contentType().toLowerCase(Locale.ROOT);
        return type.contains("charset") ? TransportUtils.getCharSetEncoding(reply.contentType()) : null;
    }

    private static SOAPEnvelope parse(NodeReply reply) {
        SOAPEnvelope envelope = OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(reply.body()),
                TransportUtils.getCharSetEncoding(reply.contentType())).getSOAPEnvelope();
        envelope.build();
        return envelope;
    }
}
