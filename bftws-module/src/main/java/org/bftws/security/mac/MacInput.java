package org.bftws.security.mac;

import java.util.Iterator;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPBody;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPHeader;
import org.bftws.rm.Wsrm;
import org.bftws.security.ProtectedParts;
import org.bftws.wire.CanonicalWriter;
import org.bftws.wire.WireBundle;
import org.bftws.wire.WireNames;

/**
 * The bytes the {@code mac} profile's HMAC covers, in this order: a domain string; the group; sender and receiver
 * node names; the WS-RM sequence id and message number (so a replayed message is a WS-RM duplicate, and a message
 * cannot be moved into another sequence or position); every WS-Addressing and WS-RM header in document order
 * ({@link CanonicalXml}: acknowledgements, action, message id, relates-to); and the body, in which a PBFT bundle
 * appears as its decoded messages' canonical forms with their embedded signatures ({@link WireBundle#canonicalBytes})
 * and anything else (WS-RM protocol bodies, faults) as {@link CanonicalXml}.
 */
final class MacInput {
    static final String DOMAIN = AuthenticatorHeader.NS + "#hmac-sha256/v1";
    static final String REQUEST_DOMAIN = AuthenticatorHeader.NS + "#request-hmac-sha256/v1";
    static final String BYTES_DOMAIN = AuthenticatorHeader.NS + "#bytes-hmac-sha256/v2";
    static final String REQUEST_BYTES_DOMAIN = AuthenticatorHeader.NS + "#request-bytes-hmac-sha256/v2";
    private static final int BUNDLE = 'B';

    private MacInput() {
    }

    /**
     * @param bundle the decoded bundle of the body's {@code pbft:Messages}, or null when the body holds none
     */
    static byte[] of(String group, String from, String to, SOAPEnvelope envelope, WireBundle bundle) {
        CanonicalWriter out = new CanonicalWriter(bundle == null ? 512 : 4096);
        out.writeString(DOMAIN).writeString(group).writeString(from).writeString(to);
        return message(out, envelope, bundle);
    }

    /**
     * The bytes a client's {@link RequestAuthenticatorHeader} covers: the same as {@link #of} without a receiver (each
     * node's entry is made under the key only that node shares with the client, which says whom it is for) and with a
     * domain of its own, so that no entry can pass for a MAC between two nodes or the other way round.
     */
    static byte[] ofRequest(String group, String client, SOAPEnvelope envelope) {
        CanonicalWriter out = new CanonicalWriter(1024);
        out.writeString(REQUEST_DOMAIN).writeString(group).writeString(client);
        return message(out, envelope, null);
    }

    /**
     * The bytes form ({@link ByteSeal}) of a MAC between two parties: a domain of its own, the group, sender and
     * receiver, then the message's bytes as they travel with the MAC value blanked (length-prefixed).
     */
    static byte[] ofBytes(String group, String from, String to, byte[] blanked) {
        CanonicalWriter out = new CanonicalWriter(blanked.length + 256);
        out.writeString(BYTES_DOMAIN).writeString(group).writeString(from).writeString(to).writeBytes(blanked);
        return out.toByteArray();
    }

    /** The bytes form of a client's request authenticator: as {@link #ofBytes}, without a receiver. */
    static byte[] ofRequestBytes(String group, String client, byte[] blanked) {
        CanonicalWriter out = new CanonicalWriter(blanked.length + 256);
        out.writeString(REQUEST_BYTES_DOMAIN).writeString(group).writeString(client).writeBytes(blanked);
        return out.toByteArray();
    }

    private static byte[] message(CanonicalWriter out, SOAPEnvelope envelope, WireBundle bundle) {
        SequencePosition position = SequencePosition.of(envelope);
        out.writeBoolean(position != null);
        if (position != null) {
            out.writeString(position.id()).writeLong(position.number());
        }
        SOAPHeader header = envelope.getHeader();
        if (header != null) {
            for (Iterator<OMElement> it = header.getChildElements(); it.hasNext(); ) {
                OMElement h = it.next();
                if (h.getNamespaceURI() != null && ProtectedParts.DEFAULT_HEADER_NAMESPACES.contains(h.getNamespaceURI())) {
                    CanonicalXml.write(h, out);
                }
            }
        }
        out.writeByte(0); // headers end: an element record never starts with a zero byte
        SOAPBody body = envelope.getBody();
        if (body == null) {
            throw new IllegalArgumentException("the envelope has no soapenv:Body");
        }
        CanonicalXml.writeAttributes(body, out);
        CanonicalXml.writeChildren(body, out, 1, (child, o) -> {
            if (!WireNames.MESSAGES.equals(child.getQName())) {
                return false;
            }
            if (bundle == null) {
                return false; // a request's body is canonical XML like any other
            }
            o.writeByte(BUNDLE);
            bundle.writeCanonical(o);
            return true;
        });
        return out.toByteArray();
    }

    /** The message's wsrm:Sequence position; null without the header (responses, protocol messages). */
    record SequencePosition(String id, long number) {
        /** As {@link #of(SOAPEnvelope)}, from the header read from the message's bytes. */
        static SequencePosition of(org.bftws.soap.SoapHeader header) {
            java.util.List<org.bftws.soap.HeaderElement> blocks = header.blocks(new javax.xml.namespace.QName(Wsrm.NS,
                    "Sequence"));
            if (blocks.isEmpty()) {
                return null;
            }
            if (blocks.size() > 1) {
                throw new IllegalArgumentException("two wsrm:Sequence headers");
            }
            org.bftws.soap.HeaderElement id = blocks.get(0).firstChild(new javax.xml.namespace.QName(Wsrm.NS,
                    "Identifier"));
            org.bftws.soap.HeaderElement number = blocks.get(0).firstChild(new javax.xml.namespace.QName(Wsrm.NS,
                    "MessageNumber"));
            if (id == null || number == null) {
                throw new IllegalArgumentException("wsrm:Sequence without Identifier or MessageNumber");
            }
            return position(id.text(), number.text());
        }

        private static SequencePosition position(String id, String number) {
            try {
                return new SequencePosition(id.trim(), Long.parseLong(number.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("wsrm:MessageNumber '" + number + "' is not a number");
            }
        }

        static SequencePosition of(SOAPEnvelope envelope) {
            SOAPHeader header = envelope.getHeader();
            if (header == null) {
                return null;
            }
            Iterator<OMElement> it = header.getChildrenWithName(new javax.xml.namespace.QName(Wsrm.NS, "Sequence"));
            if (!it.hasNext()) {
                return null;
            }
            OMElement seq = it.next();
            if (it.hasNext()) {
                throw new IllegalArgumentException("two wsrm:Sequence headers");
            }
            OMElement id = seq.getFirstChildWithName(new javax.xml.namespace.QName(Wsrm.NS, "Identifier"));
            OMElement number = seq.getFirstChildWithName(new javax.xml.namespace.QName(Wsrm.NS, "MessageNumber"));
            if (id == null || number == null) {
                throw new IllegalArgumentException("wsrm:Sequence without Identifier or MessageNumber");
            }
            return position(id.getText(), number.getText());
        }
    }
}
