package org.bftws.axis2.headers;

import java.util.Iterator;

import javax.xml.namespace.QName;

import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axiom.soap.SOAPHeaderBlock;

/**
 * The {@code bftws:ReadOnly} header (namespace {@value BftwsNamespace#URI}): on a request, the client asks the
 * replicas to execute it at once against their current state, outside the total order and outside any WS-RM
 * sequence (docs/protocol.md, "Read-only requests"); on a reply, the replica says it answered so. It is one of the
 * headers the request authenticator and the replies' MACs (or signatures) cover, so nobody on the way can turn an
 * ordered request into a read or back, nor pass a read's reply off as an ordered one.
 */
public final class ReadOnlyHeader {
    public static final QName NAME = new QName(BftwsNamespace.URI, "ReadOnly", "bftws");

    private ReadOnlyHeader() {
    }

    /** The header block, or null when the envelope carries none. */
    public static SOAPHeaderBlock find(SOAPEnvelope envelope) {
        SOAPHeader header = envelope.getHeader();
        if (header == null) {
            return null;
        }
        Iterator<SOAPHeaderBlock> it = header.getHeaderBlocksWithName(NAME);
        return it.hasNext() ? it.next() : null;
    }

    public static boolean present(SOAPEnvelope envelope) {
        return find(envelope) != null;
    }

    public static void addTo(SOAPEnvelope envelope) {
        envelope.getOrCreateHeader().addHeaderBlock(NAME.getLocalPart(),
                envelope.getOMFactory().createOMNamespace(NAME.getNamespaceURI(), NAME.getPrefix()));
    }

    /** Removes the header (a read the client sends again as an ordered request); false when there was none. */
    public static boolean remove(SOAPEnvelope envelope) {
        SOAPHeaderBlock block = find(envelope);
        if (block == null) {
            return false;
        }
        block.detach();
        return true;
    }
}
