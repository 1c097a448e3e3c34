package org.bftws.axis2.client;

import java.util.Iterator;

import javax.xml.namespace.QName;

import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axiom.soap.SOAPHeaderBlock;

/**
 * The view a replica executed a request in, as it states it on its reply: the SOAP header
 * {@code <bftws:View xmlns:bftws="urn:bftws:1">N</bftws:View>}, covered by the replica's signature (the wssec and
 * mac profiles sign every header of this namespace, see {@code ProtectedParts}). Clients learn the current view from
 * replies; the Voter accepts a view only when f+1 agreeing replies vouch for it.
 */
public final class ReplyView {

    /** The namespace of BFT-WS's own SOAP headers. */
    public static final String NAMESPACE = "urn:bftws:1";
    public static final QName HEADER = new QName(NAMESPACE, "View", "bftws");

    private ReplyView() {
    }

    /** The stated view; 0 when the reply has no View header; IllegalArgumentException for a malformed one. */
    public static int of(SOAPEnvelope envelope) {
        SOAPHeader header = envelope.getHeader();
        if (header == null) {
            return 0;
        }
        Integer view = null;
        for (Iterator<SOAPHeaderBlock> it = header.getHeaderBlocksWithNSURI(NAMESPACE).iterator(); it.hasNext(); ) {
            SOAPHeaderBlock block = it.next();
            if (!HEADER.getLocalPart().equals(block.getLocalName())) {
                continue;
            }
            if (view != null) {
                throw new IllegalArgumentException("the reply carries two bftws:View headers");
            }
            view = parse(block.getText().trim());
        }
        return view == null ? 0 : view;
    }

    private static int parse(String text) {
        if (text.isEmpty() || text.length() > 10 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("bftws:View must be a view number (0 to 2147483647), not '"
                    + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "'");
        }
        long v = Long.parseLong(text);
        if (v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("bftws:View " + text + " is above 2147483647");
        }
        return (int) v;
    }
}
