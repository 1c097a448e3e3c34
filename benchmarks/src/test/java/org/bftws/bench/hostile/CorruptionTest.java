package org.bftws.bench.hostile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMNamespace;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axiom.soap.SOAPHeaderBlock;
import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axis2.context.MessageContext;
import org.bftws.rm.Wsrm;
import org.junit.jupiter.api.Test;

/** What the hostile client's handler does to the request authenticator the module wrote. */
class CorruptionTest {

    private static final String MAC_NS = "urn:bftws:mac:1";
    private static final String[] NODES = {"replica0", "replica1", "replica2", "replica3"};

    private static SOAPEnvelope request(boolean sequence) {
        SOAPFactory f = OMAbstractFactory.getSOAP12Factory();
        SOAPEnvelope envelope = f.getDefaultEnvelope();
        OMNamespace mac = f.createOMNamespace(MAC_NS, "mac");
        SOAPHeaderBlock block = envelope.getHeader().addHeaderBlock("RequestAuthenticator", mac);
        block.addAttribute("from", "hostile", null);
        for (int i = 0; i < NODES.length; i++) {
            OMElement entry = f.createOMElement("Entry", mac, block);
            entry.addAttribute("to", NODES[i], null);
            entry.setText(Base64.getEncoder().encodeToString(mac(i)));
        }
        if (sequence) {
            envelope.getHeader().addHeaderBlock("Sequence", f.createOMNamespace(Wsrm.NS, "wsrm"));
        }
        return envelope;
    }

    private static byte[] mac(int i) {
        byte[] b = new byte[32];
        java.util.Arrays.fill(b, (byte) (i * 17 + 3));
        return b;
    }

    private static Map<String, byte[]> entries(SOAPEnvelope envelope) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        Iterator<OMElement> blocks = envelope.getHeader().getChildrenWithName(new QName(MAC_NS,
                "RequestAuthenticator"));
        if (!blocks.hasNext()) {
            return null;
        }
        for (Iterator<OMElement> it = blocks.next().getChildElements(); it.hasNext(); ) {
            OMElement e = it.next();
            m.put(e.getAttributeValue(new QName("to")), Base64.getDecoder().decode(e.getText()));
        }
        return m;
    }

    private static SOAPEnvelope spoil(HostileMode mode, boolean sequence) throws Exception {
        MessageContext mc = new MessageContext();
        mc.setEnvelope(request(sequence));
        new Corruption(mode, "replica0").invoke(mc);
        return mc.getEnvelope();
    }

    @Test
    void invalidGivesEveryEntryOtherBytesOfTheSameLength() throws Exception {
        Map<String, byte[]> e = entries(spoil(HostileMode.INVALID, true));
        for (int i = 0; i < NODES.length; i++) {
            assertEquals(32, e.get(NODES[i]).length);
            assertFalse(java.util.Arrays.equals(mac(i), e.get(NODES[i])), NODES[i]);
            assertArrayEquals(mac(i), Corruption.inverted(e.get(NODES[i])));
        }
    }

    @Test
    void primaryOnlyKeepsTheEntryOfReplicaZeroAndBackupsOnlyTheOthers() throws Exception {
        Map<String, byte[]> primary = entries(spoil(HostileMode.PRIMARY_ONLY, true));
        Map<String, byte[]> backups = entries(spoil(HostileMode.BACKUPS_ONLY, true));
        for (int i = 0; i < NODES.length; i++) {
            assertEquals(i == 0, java.util.Arrays.equals(mac(i), primary.get(NODES[i])), NODES[i]);
            assertEquals(i != 0, java.util.Arrays.equals(mac(i), backups.get(NODES[i])), NODES[i]);
        }
    }

    @Test
    void noHeaderRemovesTheAuthenticatorAndMessagesWithoutASequenceStayAuthentic() throws Exception {
        assertNull(entries(spoil(HostileMode.NO_HEADER, true)));
        Map<String, byte[]> createSequence = entries(spoil(HostileMode.INVALID, false));
        for (int i = 0; i < NODES.length; i++) {
            assertArrayEquals(mac(i), createSequence.get(NODES[i]));
        }
    }
}
