package org.bftws.wire;

import javax.xml.stream.XMLStreamException;
import org.apache.axiom.om.OMException;

/**
 * AXIOM parses a received message lazily, while the code that reads it walks the tree, so bytes that turn out not to
 * be well-formed XML surface in the reader: as AXIOM's {@link OMException}, or as the parser's own unchecked
 * exception (Woodstox reports a byte that is not UTF-8 inside a text node as a {@code WstxLazyException} with the
 * XMLStreamException as its cause, which AXIOM passes on unwrapped: the wire fuzz target found it). Both are the
 * parser refusing the input, and the readers refuse the message with their own exception; any other
 * RuntimeException is a bug of the reader and is not hidden.
 */
public final class MalformedXml {
    private MalformedXml() {
    }

    /** Whether {@code e} is the XML parser refusing the input (rather than a bug of the code that walked it). */
    public static boolean isParserRefusal(RuntimeException e) {
        if (e instanceof OMException) {
            return true;
        }
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof XMLStreamException) {
                return true;
            }
        }
        return false;
    }
}
