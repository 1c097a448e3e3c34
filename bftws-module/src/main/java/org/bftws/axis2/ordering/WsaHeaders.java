package org.bftws.axis2.ordering;

import java.util.Iterator;

import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPHeaderBlock;
import org.apache.axis2.addressing.AddressingConstants;

/** Reads WS-Addressing 1.0 headers straight from an envelope, before Axis2's addressing handler has run. */
public final class WsaHeaders {
    private WsaHeaders() {
    }

    /** The trimmed text of the envelope's first {@code wsa:localName} header; null without one. */
    public static String text(SOAPEnvelope envelope, String localName) {
        if (envelope == null || envelope.getHeader() == null) {
            return null;
        }
        Iterator<SOAPHeaderBlock> blocks = envelope.getHeader().getHeadersToProcess(null);
        while (blocks.hasNext()) {
            SOAPHeaderBlock b = blocks.next();
            if (localName.equals(b.getLocalName()) && AddressingConstants.Final.WSA_NAMESPACE.equals(b.getNamespaceURI())) {
                return b.getText().trim();
            }
        }
        return null;
    }
}
