package org.bftws.wire;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMNode;
import org.apache.axiom.om.OMText;

/**
 * Walks the children of one element in document order, the way a grammar does: {@link #many} takes a run of
 * elements with one name up to a bound, {@link #one} exactly one, {@link #end} demands that nothing follows.
 * Whitespace between elements is allowed; other text, comments, processing instructions and elements of other
 * namespaces are refused. Children are visited lazily, so a huge element list is refused after its bound, not
 * collected first.
 */
final class ChildCursor {
    private final XmlInput parent;
    private final Iterator<OMNode> nodes;
    private final java.util.Map<String, Integer> seen = new java.util.HashMap<>();
    private OMElement next;
    private int position;

    ChildCursor(XmlInput parent) {
        this.parent = parent;
        this.nodes = parent.element().getChildren();
    }

    /** The next child element if it has local name {@code local}, without consuming it. */
    boolean at(String local) throws WireFormatException {
        OMElement e = peek();
        return e != null && local.equals(e.getLocalName());
    }

    /** The next child element, whatever its name, or null at the end. */
    XmlInput next() throws WireFormatException {
        OMElement e = peek();
        if (e == null) {
            return null;
        }
        next = null;
        position++;
        // XPath style: the position among the siblings of the same name
        int index = seen.merge(XmlInput.name(e), 1, Integer::sum);
        return new XmlInput(e, parent.path() + "/" + XmlInput.name(e) + "[" + index + "]");
    }

    /** A run of zero or more {@code local} elements, refused past {@code max}. */
    List<XmlInput> many(String local, int max) throws WireFormatException {
        List<XmlInput> out = new ArrayList<>();
        while (at(local)) {
            if (out.size() == max) {
                throw parent.problem("more than " + max + " pbft:" + local + " elements");
            }
            out.add(next());
        }
        return out;
    }

    XmlInput one(String local) throws WireFormatException {
        if (!at(local)) {
            OMElement e = peek();
            throw parent.problem("expected a pbft:" + local + " element"
                    + (e == null ? ", found the end" : ", found " + XmlInput.name(e)));
        }
        return next();
    }

    void end() throws WireFormatException {
        OMElement e = peek();
        if (e != null) {
            throw parent.problem("unexpected element " + XmlInput.name(e) + " after child " + position);
        }
    }

    /** An element without child elements: only text (when {@code textAllowed}) or whitespace. */
    static void requireLeaf(XmlInput input, boolean textAllowed) throws WireFormatException {
        for (Iterator<OMNode> it = input.element().getChildren(); it.hasNext(); ) {
            OMNode n = it.next();
            if (n instanceof OMElement e) {
                throw input.problem("unexpected element " + XmlInput.name(e) + " (this element has no children)");
            } else if (!(n instanceof OMText)) {
                throw input.problem("unexpected " + describe(n));
            } else if (!textAllowed && !((OMText) n).getText().isBlank()) {
                throw input.problem("unexpected text '" + XmlInput.shorten(((OMText) n).getText().strip()) + "'");
            }
        }
    }

    private static String describe(OMNode n) {
        return n.getClass().getSimpleName().replace("Impl", "")
                + " (comments and processing instructions are not allowed)";
    }

    private OMElement peek() throws WireFormatException {
        while (next == null && nodes.hasNext()) {
            OMNode n = nodes.next();
            if (n instanceof OMElement e) {
                if (!WireNames.NS.equals(e.getNamespaceURI())) {
                    throw parent.problem("unexpected element " + XmlInput.name(e) + " (only " + WireNames.NS
                            + " elements belong here)");
                }
                next = e;
            } else if (n instanceof OMText t) {
                if (!t.getText().isBlank()) {
                    throw parent.problem("unexpected text '" + XmlInput.shorten(t.getText().strip()) + "'");
                }
            } else {
                throw parent.problem("unexpected " + describe(n));
            }
        }
        return next;
    }
}
