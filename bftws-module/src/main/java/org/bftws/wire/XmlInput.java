package org.bftws.wire;

import java.util.Base64;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import org.apache.axiom.om.OMAttribute;
import org.apache.axiom.om.OMElement;
import org.bftws.core.Digest;

/**
 * One element of received PBFT XML, read strictly: every attribute read is checked for form and range, and
 * {@link #done()} refuses attributes nobody asked for and text where none belongs. Sizes are checked on the text
 * before anything is decoded, so a value never costs more memory than its bound. Each problem is a
 * {@link WireFormatException} naming this element's path.
 */
final class XmlInput {
    private static final Base64.Decoder BASE64 = Base64.getDecoder();
    private static final int MAX_NUMBER_DIGITS = 19;

    private final OMElement element;
    private final String path;
    private final Set<String> read = new HashSet<>();
    private boolean textRead;
    private boolean childrenWalked;

    XmlInput(OMElement element, String path) {
        this.element = element;
        this.path = path;
    }

    static XmlInput root(OMElement element) throws WireFormatException {
        String path = name(element);
        if (!WireNames.NS.equals(element.getNamespaceURI())) {
            throw new WireFormatException(path, "not in namespace " + WireNames.NS);
        }
        return new XmlInput(element, path);
    }

    static String name(OMElement e) {
        String ns = e.getNamespaceURI();
        return WireNames.NS.equals(ns) ? WireNames.PREFIX + ":" + e.getLocalName()
                : "{" + (ns == null ? "" : ns) + "}" + e.getLocalName();
    }

    OMElement element() {
        return element;
    }

    String path() {
        return path;
    }

    String localName() {
        return element.getLocalName();
    }

    WireFormatException problem(String what) {
        return new WireFormatException(path, what);
    }

    /** The child elements; the caller must finish with {@link ChildCursor#end()}. */
    ChildCursor children() {
        childrenWalked = true;
        return new ChildCursor(this);
    }

    String string(String name, int maxChars) throws WireFormatException {
        String v = required(name);
        if (v.isEmpty()) {
            throw problem("attribute " + name + " is empty");
        }
        if (v.length() > maxChars) {
            throw problem("attribute " + name + " has " + v.length() + " characters; at most " + maxChars + " allowed");
        }
        return v;
    }

    int integer(String name, int min, int max) throws WireFormatException {
        return (int) number(name, min, max);
    }

    long number(String name, long min, long max) throws WireFormatException {
        String v = required(name);
        if (v.isEmpty() || v.length() > MAX_NUMBER_DIGITS || !v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw problem("attribute " + name + "='" + shorten(v) + "' is not a decimal number without sign");
        }
        long n = Long.parseLong(v); // 19 digits fit in a long
        if (n < min || n > max) {
            throw problem("attribute " + name + "=" + n + " is out of range " + min + ".." + max);
        }
        return n;
    }

    boolean bool(String name) throws WireFormatException {
        String v = required(name);
        if (!v.equals("true") && !v.equals("false")) {
            throw problem("attribute " + name + "='" + shorten(v) + "' is neither true nor false");
        }
        return v.equals("true");
    }

    Digest digest(String name) throws WireFormatException {
        byte[] b = base64(name, required(name), Digest.LENGTH);
        if (b.length != Digest.LENGTH) {
            throw problem("attribute " + name + " holds " + b.length + " bytes; a SHA-256 digest has " + Digest.LENGTH);
        }
        return Digest.fromBytes(b);
    }

    /** An optional attribute of at most {@code maxChars} characters, null when absent; never empty. */
    String optionalString(String name, int maxChars) throws WireFormatException {
        if (element.getAttributeValue(new javax.xml.namespace.QName(name)) == null) {
            read.add(name);
            return null;
        }
        return string(name, maxChars);
    }

    /** An optional base64 attribute, null when absent. */
    byte[] optionalBytes(String name, int maxBytes) throws WireFormatException {
        String v = element.getAttributeValue(new javax.xml.namespace.QName(name));
        read.add(name);
        if (v == null) {
            return null;
        }
        byte[] b = base64(name, v, maxBytes);
        if (b.length == 0) {
            throw problem("attribute " + name + " is empty");
        }
        return b;
    }

    /** The element's text as base64 bytes (an empty text is zero bytes). */
    byte[] textBytes(int maxBytes) throws WireFormatException {
        textRead = true;
        return base64("text", element.getText(), maxBytes);
    }

    /**
     * Refuses attributes that were never read; in an element whose children were not walked, refuses child
     * elements, comments and processing instructions, and text unless the text was read.
     */
    void done() throws WireFormatException {
        for (Iterator<OMAttribute> it = element.getAllAttributes(); it.hasNext(); ) {
            OMAttribute a = it.next();
            String ns = a.getNamespaceURI();
            if ((ns != null && !ns.isEmpty()) || !read.contains(a.getLocalName())) {
                throw problem("unexpected attribute " + (ns == null || ns.isEmpty() ? "" : "{" + ns + "}")
                        + a.getLocalName());
            }
        }
        if (!childrenWalked) {
            ChildCursor.requireLeaf(this, textRead);
        }
    }

    private String required(String name) throws WireFormatException {
        String v = element.getAttributeValue(new javax.xml.namespace.QName(name));
        if (v == null) {
            throw problem("attribute " + name + " is missing");
        }
        read.add(name);
        return v;
    }

    private byte[] base64(String what, String text, int maxBytes) throws WireFormatException {
        // 4 characters carry 3 bytes: refuse by length before decoding anything
        long maxChars = 4L * ((maxBytes + 2L) / 3);
        if (text.length() > maxChars) {
            throw problem(what + " holds more than " + maxBytes + " bytes (" + text.length() + " base64 characters)");
        }
        byte[] bytes;
        try {
            bytes = BASE64.decode(text);
        } catch (IllegalArgumentException e) {
            throw problem(what + " is not base64: " + e.getMessage());
        }
        if (bytes.length > maxBytes) { // the character bound above allows up to two bytes more
            throw problem(what + " holds more than " + maxBytes + " bytes (" + bytes.length + ")");
        }
        return bytes;
    }

    static String shorten(String v) {
        return v.length() <= 24 ? v : v.substring(0, 24) + "...";
    }
}
