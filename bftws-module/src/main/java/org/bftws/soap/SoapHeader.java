package org.bftws.soap;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A SOAP envelope's header blocks, read from the message's bytes in one streaming pass that stops at the start tag of
 * the Body: no object model is built and the body is never read, so what a message's headers say (its addressing,
 * its WS-RM position, its authenticator) costs the header's bytes only. SOAP 1.1 and 1.2 envelopes; a document that
 * is not one, that has a DTD, or whose header exceeds the limits below is refused with {@link MalformedSoap}, which
 * says why.
 */
public final class SoapHeader {

    public static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    public static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
    /** Header elements (blocks and everything inside them) a message may have. */
    static final int MAX_ELEMENTS = 1024;
    /** How deep inside a header block an element may sit. */
    static final int MAX_DEPTH = 16;
    /** Characters of text directly inside one header element. */
    static final int MAX_TEXT_CHARS = 64 * 1024;

    private static final XMLInputFactory XML = XMLInputFactory.newFactory();

    static {
        XML.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        XML.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        XML.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        XML.setProperty(XMLInputFactory.IS_COALESCING, true);
    }

    private final String envelopeNamespace;
    private final List<HeaderElement> blocks;

    private SoapHeader(String envelopeNamespace, List<HeaderElement> blocks) {
        this.envelopeNamespace = envelopeNamespace;
        this.blocks = List.copyOf(blocks);
    }

    /** The header blocks of the SOAP envelope {@code message} (its bytes, with their own encoding declaration). */
    public static SoapHeader read(byte[] message) throws MalformedSoap {
        XMLStreamReader r;
        try {
            r = XML.createXMLStreamReader(new ByteArrayInputStream(message));
        } catch (XMLStreamException e) {
            throw new MalformedSoap("not XML: " + e.getMessage());
        }
        try {
            return read(r);
        } catch (XMLStreamException e) {
            throw new MalformedSoap("not well-formed XML: " + e.getMessage());
        } finally {
            try {
                r.close();
            } catch (XMLStreamException ignored) {
                // nothing to release: the input is an array
            }
        }
    }

    private static SoapHeader read(XMLStreamReader r) throws XMLStreamException, MalformedSoap {
        nextElement(r);
        String ns = r.getNamespaceURI();
        if (!"Envelope".equals(r.getLocalName()) || !(SOAP11.equals(ns) || SOAP12.equals(ns))) {
            throw new MalformedSoap("the document element is " + r.getName() + ", not a SOAP 1.1 or 1.2 Envelope");
        }
        nextElement(r);
        List<HeaderElement> blocks = new ArrayList<>();
        if (ns.equals(r.getNamespaceURI()) && "Header".equals(r.getLocalName())) {
            int[] count = {0};
            for (int e = r.nextTag(); e == XMLStreamConstants.START_ELEMENT; e = r.nextTag()) {
                blocks.add(element(r, 1, count));
            }
            nextElement(r);
        }
        if (!ns.equals(r.getNamespaceURI()) || !"Body".equals(r.getLocalName())) {
            throw new MalformedSoap("the Envelope holds " + r.getName() + " where its Header or Body belongs");
        }
        return new SoapHeader(ns, blocks);
    }

    /** Moves to the next start tag, past whitespace and comments; anything else there is refused. */
    private static void nextElement(XMLStreamReader r) throws XMLStreamException, MalformedSoap {
        while (r.hasNext()) {
            int e = r.next();
            switch (e) {
                case XMLStreamConstants.START_ELEMENT:
                    return;
                case XMLStreamConstants.COMMENT:
                case XMLStreamConstants.SPACE:
                    break;
                case XMLStreamConstants.CHARACTERS:
                    if (!r.isWhiteSpace()) {
                        throw new MalformedSoap("text where an element of the Envelope belongs");
                    }
                    break;
                case XMLStreamConstants.DTD:
                    throw new MalformedSoap("a SOAP message may not have a DTD");
                case XMLStreamConstants.PROCESSING_INSTRUCTION:
                    throw new MalformedSoap("a SOAP message may not have processing instructions");
                default:
                    throw new MalformedSoap("the Envelope ends before its Body");
            }
        }
        throw new MalformedSoap("the Envelope ends before its Body");
    }

    /** The element whose start tag {@code r} is on, read to its end tag. */
    private static HeaderElement element(XMLStreamReader r, int depth, int[] count)
            throws XMLStreamException, MalformedSoap {
        if (++count[0] > MAX_ELEMENTS) {
            throw new MalformedSoap("the Header has more than " + MAX_ELEMENTS + " elements");
        }
        if (depth > MAX_DEPTH) {
            throw new MalformedSoap("a header element nests deeper than " + MAX_DEPTH);
        }
        QName name = r.getName();
        Map<QName, String> attributes = new LinkedHashMap<>();
        for (int i = 0; i < r.getAttributeCount(); i++) {
            attributes.put(r.getAttributeName(i), r.getAttributeValue(i));
        }
        StringBuilder text = new StringBuilder();
        List<HeaderElement> children = new ArrayList<>();
        while (true) {
            int e = r.next();
            switch (e) {
                case XMLStreamConstants.START_ELEMENT:
                    children.add(element(r, depth + 1, count));
                    break;
                case XMLStreamConstants.END_ELEMENT:
                    return new HeaderElement(name, attributes, text.toString(), children);
                case XMLStreamConstants.CHARACTERS:
                case XMLStreamConstants.CDATA:
                case XMLStreamConstants.SPACE:
                    if (text.length() + r.getTextLength() > MAX_TEXT_CHARS) {
                        throw new MalformedSoap(name + " holds more than " + MAX_TEXT_CHARS + " characters of text");
                    }
                    text.append(r.getTextCharacters(), r.getTextStart(), r.getTextLength());
                    break;
                case XMLStreamConstants.COMMENT:
                    break;
                case XMLStreamConstants.PROCESSING_INSTRUCTION:
                    throw new MalformedSoap("a SOAP message may not have processing instructions");
                case XMLStreamConstants.ENTITY_REFERENCE:
                    throw new MalformedSoap(name + " refers to an entity the message does not declare");
                default:
                    throw new MalformedSoap("the message ends inside " + name);
            }
        }
    }

    /** The envelope's namespace: {@link #SOAP11} or {@link #SOAP12}. */
    public String envelopeNamespace() {
        return envelopeNamespace;
    }

    /** Every header block in document order (none when the envelope has no Header). */
    public List<HeaderElement> blocks() {
        return blocks;
    }

    /** The header blocks named {@code name}, in document order. */
    public List<HeaderElement> blocks(QName name) {
        List<HeaderElement> named = new ArrayList<>();
        for (HeaderElement b : blocks) {
            if (b.name().equals(name)) {
                named.add(b);
            }
        }
        return named;
    }
}
