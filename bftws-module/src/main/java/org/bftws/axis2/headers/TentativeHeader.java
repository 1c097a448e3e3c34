package org.bftws.axis2.headers;

import java.util.Iterator;

import javax.xml.namespace.QName;

import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axiom.soap.SOAPHeaderBlock;

/**
 * The {@code bftws:Tentative} header (namespace {@value BftwsNamespace#URI}) on a reply: the replica executed the
 * request once its batch was prepared, before it committed (PBFT's tentative execution, docs/protocol.md). A client
 * accepts such a result only from 2f+1 replicas of one view, or once f+1 answer without the header. It is one of the
 * headers the replies' MACs (or signatures) cover, so nobody on the way can pass a tentative reply off as committed.
 */
public final class TentativeHeader {
    public static final QName NAME = new QName(BftwsNamespace.URI, "Tentative", "bftws");

    private TentativeHeader() {
    }

    /** Whether the envelope carries the header. */
    public static boolean present(SOAPEnvelope envelope) {
        SOAPHeader header = envelope.getHeader();
        if (header == null) {
            return false;
        }
        Iterator<SOAPHeaderBlock> it = header.getHeaderBlocksWithName(NAME);
        return it.hasNext();
    }

    public static void addTo(SOAPEnvelope envelope) {
        envelope.getOrCreateHeader().addHeaderBlock(NAME.getLocalPart(),
                envelope.getOMFactory().createOMNamespace(NAME.getNamespaceURI(), NAME.getPrefix()));
    }
}
