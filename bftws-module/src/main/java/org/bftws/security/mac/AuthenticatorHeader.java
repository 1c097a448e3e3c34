package org.bftws.security.mac;

import java.util.Base64;
import javax.xml.namespace.QName;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axiom.soap.SOAPHeaderBlock;
import org.bftws.security.SecurityRefusal;

/**
 * The {@code mac:Authenticator} SOAP header of the {@code mac} profile:
 * {@code <mac:Authenticator from="replica0" to="replica1" soapenv:mustUnderstand="1">base64 HMAC</mac:Authenticator>}.
 * mustUnderstand, so that a node without this profile refuses the message instead of accepting it unchecked.
 */
record AuthenticatorHeader(String from, String to, byte[] mac, boolean coversBytes) {
    static final String NS = "urn:bftws:mac:1";
    static final String PREFIX = "mac";
    static final QName NAME = new QName(NS, "Authenticator", PREFIX);
    static final int MAC_BYTES = 32;

    void addTo(SOAPEnvelope envelope) {
        SOAPFactory f = (SOAPFactory) envelope.getOMFactory();
        SOAPHeader header = envelope.getHeader() != null ? envelope.getHeader() : f.createSOAPHeader(envelope);
        SOAPHeaderBlock block = header.addHeaderBlock(NAME.getLocalPart(), f.createOMNamespace(NS, PREFIX));
        block.setMustUnderstand(true);
        block.addAttribute("from", from, null);
        block.addAttribute("to", to, null);
        if (coversBytes) {
            block.addAttribute(ByteSeal.COVERS, ByteSeal.BYTES, null);
        }
        block.setText(Base64.getEncoder().encodeToString(mac));
    }

    /**
     * The message's authenticators in document order, empty when it has none; SecurityRefusal MALFORMED when one is
     * not well formed. One, except on a callee replica's reply to a nested request, which carries one per caller
     * replica, each over the same bytes (then all must cover the bytes).
     */
    static java.util.List<AuthenticatorHeader> readAll(SOAPEnvelope envelope) throws SecurityRefusal {
        java.util.List<AuthenticatorHeader> all = new java.util.ArrayList<>();
        for (SOAPHeaderBlock block : MacHeaderBlocks.all(envelope, NAME)) {
            all.add(read(block));
        }
        if (all.size() > 1 && !all.stream().allMatch(AuthenticatorHeader::coversBytes)) {
            throw malformed("several of them must each cover the message's bytes");
        }
        return all;
    }

    /** The MACs of {@code all}, in their order: what a receiver blanks before it computes its own. */
    static java.util.List<byte[]> macs(java.util.List<AuthenticatorHeader> all) {
        return all.stream().map(AuthenticatorHeader::mac).toList();
    }

    private static AuthenticatorHeader read(SOAPHeaderBlock block) throws SecurityRefusal {
        String from = name(block, "from");
        String to = name(block, "to");
        if (block.getFirstElement() != null) {
            throw malformed("it must hold only the base64 MAC");
        }
        byte[] mac;
        try {
            String text = block.getText();
            mac = text.length() > 64 ? new byte[0] : Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw malformed("its MAC is not base64");
        }
        if (mac.length != MAC_BYTES) {
            throw malformed("its MAC must be " + MAC_BYTES + " bytes of HMAC-SHA256");
        }
        return new AuthenticatorHeader(from, to, mac, coversBytes(block));
    }

    private static String name(OMElement element, String attribute) throws SecurityRefusal {
        return MacHeaderBlocks.partyName(element, NAME, attribute, "node");
    }

    private static SecurityRefusal malformed(String problem) {
        return MacHeaderBlocks.malformed(NAME, problem);
    }

    /** Whether {@code block} says its MACs cover the message's bytes ({@link ByteSeal}); absent: the canonical form. */
    static boolean coversBytes(OMElement block) throws SecurityRefusal {
        return coversBytes(block.getQName(), block.getAttributeValue(new javax.xml.namespace.QName(ByteSeal.COVERS)));
    }

    /** Whether a block {@code name} whose covers attribute is {@code covers} (null: absent) covers the bytes. */
    static boolean coversBytes(javax.xml.namespace.QName name, String covers) throws SecurityRefusal {
        if (covers != null && !ByteSeal.BYTES.equals(covers)) {
            throw MacHeaderBlocks.malformed(name, "attribute " + ByteSeal.COVERS + " may only say "
                    + ByteSeal.BYTES);
        }
        return covers != null;
    }
}
