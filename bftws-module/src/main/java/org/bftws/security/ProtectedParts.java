package org.bftws.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The parts of a SOAP envelope a signature must cover: the Body and every header of WS-Addressing and
 * WS-ReliableMessaging (plus any other namespace the caller adds, e.g. BFT-WS's own headers). The signer signs
 * exactly these; the verifier demands each of them, found at its proper place in the envelope, among the signed
 * elements, which defeats signature wrapping (a signed copy moved elsewhere while a forged element takes its place).
 */
public final class ProtectedParts {
    /**
     * WS-Addressing 1.0 and the 2004/08 submission, WS-RM 1.1 and 1.0, and BFT-WS's own headers ({@code urn:bftws:1},
     * e.g. the {@code bftws:View} a replica states on its reply, which clients learn the current view from).
     */
    public static final Set<String> DEFAULT_HEADER_NAMESPACES = Set.of(
            "http://www.w3.org/2005/08/addressing",
            "http://schemas.xmlsoap.org/ws/2004/08/addressing",
            "http://docs.oasis-open.org/ws-rx/wsrm/200702",
            "http://schemas.xmlsoap.org/ws/2005/02/rm",
            "urn:bftws:1");

    private final Set<String> headerNamespaces;

    public ProtectedParts(Set<String> headerNamespaces) {
        this.headerNamespaces = Set.copyOf(headerNamespaces);
    }

    public static ProtectedParts defaults() {
        return new ProtectedParts(DEFAULT_HEADER_NAMESPACES);
    }

    /** The SOAP Body, a direct child of the document element; SecurityRefusal MALFORMED when not exactly one. */
    Element body(Document envelope) throws SecurityRefusal {
        return only(envelope, "Body");
    }

    /** The headers that must be signed, in document order. */
    List<Element> headers(Document envelope) throws SecurityRefusal {
        List<Element> out = new ArrayList<>();
        Element header = optional(envelope, "Header");
        if (header != null) {
            for (Node n = header.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && e.getNamespaceURI() != null
                        && headerNamespaces.contains(e.getNamespaceURI())) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    private static Element only(Document envelope, String local) throws SecurityRefusal {
        Element found = optional(envelope, local);
        if (found == null) {
            throw new SecurityRefusal(RefusalReason.MALFORMED, "the envelope has no SOAP " + local);
        }
        return found;
    }

    private static Element optional(Document envelope, String local) throws SecurityRefusal {
        Element root = envelope.getDocumentElement();
        Element found = null;
        for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && local.equals(e.getLocalName())
                    && root.getNamespaceURI().equals(e.getNamespaceURI())) {
                if (found != null) {
                    throw new SecurityRefusal(RefusalReason.MALFORMED, "the envelope has two SOAP " + local + " elements");
                }
                found = e;
            }
        }
        return found;
    }
}
