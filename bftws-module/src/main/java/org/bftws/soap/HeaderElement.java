package org.bftws.soap;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;

/**
 * An element of a SOAP header as {@link SoapHeader} read it from the message's bytes: its name, its attributes, its
 * own text (the character data directly inside it, as AXIOM's {@code getText()} gives it) and its child elements.
 *
 * @param name       the element's qualified name
 * @param attributes every attribute by qualified name (an unqualified one has no namespace)
 * @param text       the character data directly inside the element, not its children's
 * @param children   its child elements in document order
 */
public record HeaderElement(QName name, Map<QName, String> attributes, String text, List<HeaderElement> children) {

    public HeaderElement {
        attributes = Map.copyOf(attributes);
        children = List.copyOf(children);
    }

    /** The value of the unqualified attribute {@code localName}, null when absent. */
    public String attribute(String localName) {
        return attributes.get(new QName(localName));
    }

    /** The value of attribute {@code name}, null when absent. */
    public String attribute(QName name) {
        return attributes.get(name);
    }

    /** The child elements named {@code name}, in document order. */
    public List<HeaderElement> children(QName name) {
        List<HeaderElement> named = new ArrayList<>();
        for (HeaderElement c : children) {
            if (c.name.equals(name)) {
                named.add(c);
            }
        }
        return named;
    }

    /** The first child element named {@code name}, null when there is none. */
    public HeaderElement firstChild(QName name) {
        for (HeaderElement c : children) {
            if (c.name.equals(name)) {
                return c;
            }
        }
        return null;
    }
}
