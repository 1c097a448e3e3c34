package org.bftws.axis2.client;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAttribute;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMNode;
import org.apache.axiom.om.OMText;
import org.apache.axiom.soap.SOAPBody;
import org.apache.axiom.soap.SOAPFaultCode;
import org.apache.axiom.soap.SOAPFaultSubCode;
import org.apache.axiom.soap.SOAPFaultValue;
import org.apache.axiom.soap.SOAPHeader;
import org.bftws.wire.CanonicalWriter;

/**
 * The canonical bytes of a SOAP Body's content: what the client Voter compares (by digest) across replicas. Two
 * replicas that return the same XML information must give the same bytes however their serialisers wrote it, so
 * the form keeps namespace URIs, local names, attributes (sorted) and text, and drops what no reader of the result
 * sees: prefixes, namespace declarations, comments, processing instructions, the order of attributes, and
 * whitespace-only text between elements (indentation). Values that are QNames by definition (SOAP fault codes,
 * {@code xsi:type}) are written as {namespace}local, since their prefixes are as arbitrary as element prefixes.
 * Text inside an element without child elements is kept exactly, whitespace included: there it is data.
 *
 * <p>In a reply headers never count: acknowledgements, signatures, timestamps and message ids legitimately differ
 * between replicas. Copies of one nested request, which caller replicas send alike, are compared by their headers too
 * ({@link #ofHeaders}). Depth is bounded, so a hostile reply cannot exhaust the stack.
 */
public final class CanonicalBody {

    /** Deeper replies are refused as malformed. */
    public static final int MAX_DEPTH = 256;
    private static final String XSI = "http://www.w3.org/2001/XMLSchema-instance";
    private static final String WSU =
            "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
    private static final int ELEMENT = 'E';
    private static final int TEXT = 'T';
    private static final int END = 'e';

    private CanonicalBody() {
    }

    /** The canonical form of every child of {@code body}; IllegalArgumentException when it nests too deep. */
    public static byte[] of(SOAPBody body) {
        CanonicalWriter out = new CanonicalWriter(512);
        writeChildren(body, out, 0);
        return out.toByteArray();
    }

    /**
     * The canonical form of the header blocks of {@code header} that {@code include} accepts, in document order, each
     * as the body's content is written except for its own {@code wsu:Id} attribute: a WS-Security signer gives every
     * part it signs an identifier of its own, so two senders' copies of one message differ there and nowhere else.
     */
    public static byte[] ofHeaders(SOAPHeader header, Predicate<OMElement> include) {
        CanonicalWriter out = new CanonicalWriter(512);
        if (header != null) {
            for (Iterator<OMElement> it = header.getChildElements(); it.hasNext(); ) {
                OMElement block = it.next();
                if (include.test(block)) {
                    write(block, out, 1, true);
                }
            }
        }
        return out.toByteArray();
    }

    private static void write(OMElement element, CanonicalWriter out, int depth) {
        write(element, out, depth, false);
    }

    private static void write(OMElement element, CanonicalWriter out, int depth, boolean withoutWsuId) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("the reply body nests deeper than " + MAX_DEPTH + " elements");
        }
        out.writeByte(ELEMENT).writeString(ns(element.getNamespaceURI())).writeString(element.getLocalName());
        writeAttributes(element, out, withoutWsuId);
        if (holdsQName(element)) {
            out.writeByte(TEXT).writeString(qname(element, element.getText().trim()));
        } else {
            writeChildren(element, out, depth);
        }
        out.writeByte(END);
    }

    private static void writeAttributes(OMElement element, CanonicalWriter out, boolean withoutWsuId) {
        List<OMAttribute> attributes = new ArrayList<>();
        for (Iterator<OMAttribute> it = element.getAllAttributes(); it.hasNext(); ) {
            OMAttribute a = it.next();
            if (!(withoutWsuId && WSU.equals(a.getNamespaceURI()) && "Id".equals(a.getLocalName()))) {
                attributes.add(a);
            }
        }
        attributes.sort(Comparator.comparing((OMAttribute a) -> ns(a.getNamespaceURI()))
                .thenComparing(OMAttribute::getLocalName));
        out.writeInt(attributes.size());
        for (OMAttribute a : attributes) {
            boolean typed = XSI.equals(a.getNamespaceURI()) && "type".equals(a.getLocalName());
            out.writeString(ns(a.getNamespaceURI())).writeString(a.getLocalName())
                    .writeString(typed ? qname(element, a.getAttributeValue().trim()) : a.getAttributeValue());
        }
    }

    /**
     * Child elements in order, and runs of adjacent text (text and CDATA nodes joined, as getText() sees them).
     * In element content (an element with child elements) whitespace-only runs are indentation and left out.
     */
    private static void writeChildren(OMElement element, CanonicalWriter out, int depth) {
        boolean elementContent = element.getFirstElement() != null;
        StringBuilder text = null;
        for (Iterator<OMNode> it = element.getChildren(); it.hasNext(); ) {
            OMNode n = it.next();
            if (n instanceof OMText t) {
                text = text == null ? new StringBuilder(t.getText()) : text.append(t.getText());
            } else if (n instanceof OMElement child) {
                flush(text, elementContent, out);
                text = null;
                write(child, out, depth + 1);
            }
        }
        flush(text, elementContent, out);
    }

    private static void flush(StringBuilder text, boolean elementContent, CanonicalWriter out) {
        if (text != null && !(elementContent && text.toString().isBlank())) {
            out.writeByte(TEXT).writeString(text.toString());
        }
    }

    /** SOAP 1.1 faultcode and SOAP 1.2 Code/Value, Subcode/Value hold a QName as their text. */
    private static boolean holdsQName(OMElement element) {
        return element instanceof SOAPFaultValue
                || element instanceof SOAPFaultCode && element.getFirstElement() == null
                || element instanceof SOAPFaultSubCode && element.getFirstElement() == null;
    }

    /** A prefixed name resolved against the namespaces in scope; an unresolvable one is kept as written. */
    private static String qname(OMElement context, String prefixed) {
        QName q = prefixed.isEmpty() ? null : context.resolveQName(prefixed);
        return q == null ? "?" + prefixed : "{" + q.getNamespaceURI() + "}" + q.getLocalPart();
    }

    private static String ns(String uri) {
        return uri == null ? "" : uri;
    }
}
