package org.bftws.security.mac;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.axiom.om.OMAttribute;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMNode;
import org.apache.axiom.om.OMText;
import org.bftws.wire.CanonicalWriter;

/**
 * A deterministic byte form of an XML element for the MAC over SOAP headers and non-PBFT bodies (WS-RM protocol
 * messages, faults). It keeps what the receiving code reads: namespace URIs and local names, attributes (sorted, so
 * their order does not matter), and text (adjacent text and CDATA nodes joined, as {@code getText()} sees them);
 * it drops what no code reads: prefixes, namespace declarations, comments, processing instructions. The sender's
 * in-memory tree and the receiver's parsed copy of it therefore give the same bytes, with no XML canonicalisation
 * library involved. Depth is bounded so that a hostile document cannot exhaust the stack.
 */
final class CanonicalXml {
    static final int MAX_DEPTH = 64;

    private static final int ELEMENT = 'E';
    private static final int TEXT = 'T';
    private static final int END = 'e';

    private CanonicalXml() {
    }

    /** Writes {@code element}; IllegalArgumentException when it nests deeper than {@value #MAX_DEPTH}. */
    static void write(OMElement element, CanonicalWriter out) {
        write(element, out, 0);
    }

    private static void write(OMElement element, CanonicalWriter out, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("XML nested deeper than " + MAX_DEPTH + " elements");
        }
        out.writeByte(ELEMENT).writeString(ns(element.getNamespaceURI())).writeString(element.getLocalName());
        writeAttributes(element, out);
        writeChildren(element, out, depth, null);
        out.writeByte(END);
    }

    /** Attributes: count, then (namespace, local name, value) in namespace then name order. */
    static void writeAttributes(OMElement element, CanonicalWriter out) {
        List<OMAttribute> attributes = new ArrayList<>();
        for (Iterator<OMAttribute> it = element.getAllAttributes(); it.hasNext(); ) {
            attributes.add(it.next());
        }
        attributes.sort(Comparator.comparing((OMAttribute a) -> ns(a.getNamespaceURI()))
                .thenComparing(OMAttribute::getLocalName));
        out.writeInt(attributes.size());
        for (OMAttribute a : attributes) {
            out.writeString(ns(a.getNamespaceURI())).writeString(a.getLocalName()).writeString(a.getAttributeValue());
        }
    }

    /** A child element {@code special} accepts is written by it instead of as XML (the PBFT bundle). */
    interface Substitution {
        boolean write(OMElement child, CanonicalWriter out);
    }

    /** Children in order: elements, and runs of text joined into one text item. */
    static void writeChildren(OMElement element, CanonicalWriter out, int depth, Substitution special) {
        StringBuilder text = null;
        for (Iterator<OMNode> it = element.getChildren(); it.hasNext(); ) {
            OMNode n = it.next();
            if (n instanceof OMText t) {
                text = text == null ? new StringBuilder(t.getText()) : text.append(t.getText());
            } else if (n instanceof OMElement child) {
                text = flush(text, out);
                if (special == null || !special.write(child, out)) {
                    write(child, out, depth + 1);
                }
            }
        }
        flush(text, out);
    }

    private static StringBuilder flush(StringBuilder text, CanonicalWriter out) {
        if (text != null) {
            out.writeByte(TEXT).writeString(text.toString());
        }
        return null;
    }

    private static String ns(String uri) {
        return uri == null ? "" : uri;
    }
}
