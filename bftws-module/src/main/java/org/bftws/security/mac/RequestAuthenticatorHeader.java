package org.bftws.security.mac;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.xml.namespace.QName;
import org.apache.axiom.om.OMElement;
import org.bftws.soap.HeaderElement;
import org.bftws.soap.SoapHeader;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axiom.soap.SOAPHeaderBlock;
import org.bftws.security.SecurityRefusal;

/**
 * PBFT's authenticator on a client's request (the {@code mac} profile): one HMAC-SHA256 per node of the group, each
 * under the key the client shares with that node, over the same bytes ({@link MacInput#ofRequest}). The client sends
 * one message to every node; each node checks its own entry, also on a copy another node relays to it, which is what
 * a single MAC could not do and a signature did at a thousand times the cost.
 * <pre>{@code
 * <mac:RequestAuthenticator xmlns:mac="urn:bftws:mac:1" soapenv:mustUnderstand="1" from="client1">
 *   <mac:Entry to="replica0">base64 HMAC</mac:Entry> ... one per node
 * </mac:RequestAuthenticator>
 * }</pre>
 * mustUnderstand, so that a node without this profile refuses the message instead of accepting it unchecked.
 */
record RequestAuthenticatorHeader(String from, Map<String, byte[]> entries, boolean coversBytes) {
    static final QName NAME = new QName(AuthenticatorHeader.NS, "RequestAuthenticator", AuthenticatorHeader.PREFIX);
    static final QName ENTRY = new QName(AuthenticatorHeader.NS, "Entry", AuthenticatorHeader.PREFIX);
    /** More entries than any group has nodes is refused before anything is allocated for them. */
    static final int MAX_ENTRIES = 256;

    void addTo(SOAPEnvelope envelope) {
        SOAPFactory f = (SOAPFactory) envelope.getOMFactory();
        SOAPHeader header = envelope.getHeader() != null ? envelope.getHeader() : f.createSOAPHeader(envelope);
        SOAPHeaderBlock block = header.addHeaderBlock(NAME.getLocalPart(),
                f.createOMNamespace(AuthenticatorHeader.NS, AuthenticatorHeader.PREFIX));
        block.setMustUnderstand(true);
        block.addAttribute("from", from, null);
        if (coversBytes) {
            block.addAttribute(ByteSeal.COVERS, ByteSeal.BYTES, null);
        }
        Base64.Encoder base64 = Base64.getEncoder();
        entries.forEach((to, mac) -> {
            OMElement entry = f.createOMElement(ENTRY.getLocalPart(), block.getNamespace(), block);
            entry.addAttribute("to", to, null);
            entry.setText(base64.encodeToString(mac));
        });
    }

    /** The entry made for node {@code node}, matched ignoring case as node names are. */
    Optional<byte[]> entryFor(String node) {
        for (Map.Entry<String, byte[]> e : entries.entrySet()) {
            if (e.getKey().equalsIgnoreCase(node)) {
                return Optional.of(e.getValue());
            }
        }
        return Optional.empty();
    }

    /** The message's request authenticator, null when it has none; SecurityRefusal MALFORMED when it is ill formed. */
    static RequestAuthenticatorHeader read(SOAPEnvelope envelope) throws SecurityRefusal {
        SOAPHeaderBlock block = find(envelope);
        return block == null ? null : of(MacHeaderBlocks.scanned(block));
    }

    /** As {@link #read(SOAPEnvelope)}, from the header {@link SoapHeader} read from the message's bytes. */
    static RequestAuthenticatorHeader read(SoapHeader header) throws SecurityRefusal {
        HeaderElement block = MacHeaderBlocks.single(header, NAME);
        return block == null ? null : of(block);
    }

    /** The authenticator {@code block} holds; SecurityRefusal MALFORMED when it is ill formed. */
    private static RequestAuthenticatorHeader of(HeaderElement block) throws SecurityRefusal {
        String from = name(block, "from");
        Map<String, byte[]> entries = new LinkedHashMap<>();
        Base64.Decoder base64 = Base64.getDecoder();
        for (HeaderElement e : block.children()) {
            if (!ENTRY.equals(e.name())) {
                throw malformed("it holds only mac:Entry elements, not " + e.name());
            }
            if (entries.size() >= MAX_ENTRIES) {
                throw malformed("more than " + MAX_ENTRIES + " entries");
            }
            String to = name(e, "to");
            String text = e.text();
            byte[] mac;
            try {
                mac = text.length() > 64 ? new byte[0] : base64.decode(text.trim());
            } catch (IllegalArgumentException bad) {
                throw malformed("the entry for " + to + " is not base64");
            }
            if (mac.length != AuthenticatorHeader.MAC_BYTES) {
                throw malformed("the entry for " + to + " must be " + AuthenticatorHeader.MAC_BYTES
                        + " bytes of HMAC-SHA256");
            }
            if (entries.putIfAbsent(to.toLowerCase(java.util.Locale.ROOT), mac) != null) {
                throw malformed("two entries for " + to);
            }
        }
        return new RequestAuthenticatorHeader(from, entries, AuthenticatorHeader.coversBytes(NAME,
                block.attribute(ByteSeal.COVERS)));
    }

    /** The header block itself, null when absent. */
    static SOAPHeaderBlock find(SOAPEnvelope envelope) throws SecurityRefusal {
        return MacHeaderBlocks.single(envelope, NAME);
    }

    private static String name(HeaderElement element, String attribute) throws SecurityRefusal {
        return MacHeaderBlocks.partyName(element.attribute(attribute), NAME, attribute, "party");
    }

    private static SecurityRefusal malformed(String problem) {
        return MacHeaderBlocks.malformed(NAME, problem);
    }
}
