package org.bftws.security.mac;

import java.util.Iterator;
import javax.xml.namespace.QName;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axiom.soap.SOAPHeaderBlock;
import org.bftws.security.RefusalReason;
import org.bftws.security.SecurityRefusal;
import org.bftws.soap.HeaderElement;
import org.bftws.soap.SoapHeader;

/** How the {@code mac} profile's header blocks are found and their party names read, with refusals that name them. */
final class MacHeaderBlocks {
    static final int MAX_NAME_CHARS = 256;

    private MacHeaderBlocks() {
    }

    /** The one {@code name} header block of {@code envelope}, null when absent; two of them are malformed. */
    static SOAPHeaderBlock single(SOAPEnvelope envelope, QName name) throws SecurityRefusal {
        SOAPHeader header = envelope.getHeader();
        if (header == null) {
            return null;
        }
        Iterator<OMElement> it = header.getChildrenWithName(name);
        if (!it.hasNext()) {
            return null;
        }
        SOAPHeaderBlock block = (SOAPHeaderBlock) it.next();
        if (it.hasNext()) {
            throw malformed(name, "the message carries two of them");
        }
        return block;
    }

    /** The one {@code name} block of {@code header}, null when absent; two of them are malformed. */
    static HeaderElement single(SoapHeader header, QName name) throws SecurityRefusal {
        java.util.List<HeaderElement> blocks = header.blocks(name);
        if (blocks.size() > 1) {
            throw malformed(name, "the message carries two of them");
        }
        return blocks.isEmpty() ? null : blocks.get(0);
    }

    /** {@code element} as {@link SoapHeader} reads one: so that a block found in a tree is checked as one scanned. */
    static HeaderElement scanned(OMElement element) {
        java.util.Map<QName, String> attributes = new java.util.LinkedHashMap<>();
        for (Iterator<org.apache.axiom.om.OMAttribute> it = element.getAllAttributes(); it.hasNext(); ) {
            org.apache.axiom.om.OMAttribute a = it.next();
            attributes.put(a.getQName(), a.getAttributeValue());
        }
        java.util.List<HeaderElement> children = new java.util.ArrayList<>();
        for (Iterator<OMElement> it = element.getChildElements(); it.hasNext(); ) {
            children.add(scanned(it.next()));
        }
        return new HeaderElement(element.getQName(), attributes, element.getText(), children);
    }

    /** Every {@code name} header block of {@code envelope}, in document order. */
    static java.util.List<SOAPHeaderBlock> all(SOAPEnvelope envelope, QName name) {
        java.util.List<SOAPHeaderBlock> out = new java.util.ArrayList<>();
        SOAPHeader header = envelope.getHeader();
        if (header != null) {
            for (Iterator<OMElement> it = header.getChildrenWithName(name); it.hasNext(); ) {
                out.add((SOAPHeaderBlock) it.next());
            }
        }
        return out;
    }

    /** Attribute {@code attribute} of {@code element}, which must name a party ({@code what}) within the bound. */
    static String partyName(OMElement element, QName header, String attribute, String what) throws SecurityRefusal {
        return partyName(element.getAttributeValue(new QName(attribute)), header, attribute, what);
    }

    /** {@code v}, the value of attribute {@code attribute} (null: absent), which must name a party within the bound. */
    static String partyName(String v, QName header, String attribute, String what) throws SecurityRefusal {
        if (v == null || v.isBlank() || v.length() > MAX_NAME_CHARS) {
            throw malformed(header, "attribute " + attribute + " must name a " + what);
        }
        return v;
    }

    static SecurityRefusal malformed(QName header, String problem) {
        return new SecurityRefusal(RefusalReason.MALFORMED, "mac:" + header.getLocalPart() + ": " + problem);
    }
}
