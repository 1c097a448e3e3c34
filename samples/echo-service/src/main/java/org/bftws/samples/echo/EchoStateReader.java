package org.bftws.samples.echo;

import java.util.ArrayList;
import java.util.List;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a {@code set_state} request with a pull parser, element by element, so a large state is never held as a
 * tree: the replica hands {@code set_state} an element that is parsed only as it is read. Anything but the shape
 * {@link EchoStateSource} writes is refused with the reason.
 */
final class EchoStateReader {

    /** What a {@code set_state} request carries. */
    record Content(List<String> entries, String digest, int pads) {
    }

    private EchoStateReader() {
    }

    /** {@code r} reads the request element (positioned on its start tag, or before it). */
    static Content read(XMLStreamReader r) throws XMLStreamException {
        if (r.getEventType() != XMLStreamConstants.START_ELEMENT) {
            nextElement(r);
        }
        if (nextElement(r) != XMLStreamConstants.START_ELEMENT || !is(r, "state")) {
            throw new IllegalArgumentException("set_state needs a {" + EchoService.NS + "}state child");
        }
        String digest = r.getAttributeValue(null, "digest");
        if (digest == null) {
            throw new IllegalArgumentException("state has no digest attribute");
        }
        List<String> entries = new ArrayList<>();
        int pads = 0;
        while (nextElement(r) == XMLStreamConstants.START_ELEMENT) {
            if (is(r, "entry")) {
                entries.add(r.getElementText());
            } else if (is(r, "pad")) {
                r.getElementText();
                pads++;
            } else {
                throw new IllegalArgumentException("unexpected element " + r.getName() + " in state");
            }
        }
        return new Content(entries, digest, pads);
    }

    /** Skips text and comments to the next start or end tag; returns which (END_DOCUMENT at the end). */
    private static int nextElement(XMLStreamReader r) throws XMLStreamException {
        while (r.hasNext()) {
            int event = r.next();
            if (event == XMLStreamConstants.START_ELEMENT || event == XMLStreamConstants.END_ELEMENT) {
                return event;
            }
        }
        return XMLStreamConstants.END_DOCUMENT;
    }

    private static boolean is(XMLStreamReader r, String localName) {
        return EchoService.NS.equals(r.getNamespaceURI()) && localName.equals(r.getLocalName());
    }
}
