package org.bftws.axis2.ordering;

import java.util.Base64;
import java.util.Iterator;
import javax.xml.namespace.QName;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.handlers.AbstractHandler;

/**
 * Test only: a faulty client's request authenticator, wrong at the primary of view 0 only (WebBFT's MAC attack): after
 * the client's security handler made it, the {@code mac:Entry} for replica0 of every request in a WS-RM sequence is
 * replaced by other bytes of the same length; the entries of the three backups stay right. Installed after the
 * security handler in one test client's axis2.xml. {@link CorruptPrimaryEntryEverywhereHandler} does it to every
 * message, the CreateSequence too, so the primary never learns the client's sequence either.
 */
public class CorruptPrimaryEntryHandler extends AbstractHandler {

    boolean applies(SOAPHeader header) {
        return header.getFirstChildWithName(SEQUENCE) != null;
    }

    private static final String MAC = "urn:bftws:mac:1";
    private static final QName SEQUENCE = new QName("http://docs.oasis-open.org/ws-rx/wsrm/200702", "Sequence");

    @Override
    public InvocationResponse invoke(MessageContext mc) {
        SOAPHeader header = mc.isServerSide() || mc.getEnvelope() == null ? null : mc.getEnvelope().getHeader();
        if (header == null || !applies(header)) {
            return InvocationResponse.CONTINUE;
        }
        OMElement authenticator = header.getFirstChildWithName(new QName(MAC, "RequestAuthenticator"));
        if (authenticator == null) {
            return InvocationResponse.CONTINUE;
        }
        for (Iterator<OMElement> it = authenticator.getChildrenWithName(new QName(MAC, "Entry")); it.hasNext(); ) {
            OMElement entry = it.next();
            if ("replica0".equals(entry.getAttributeValue(new QName("to")))) {
                byte[] mac = Base64.getDecoder().decode(entry.getText().trim());
                for (int i = 0; i < mac.length; i++) {
                    mac[i] ^= (byte) 0x5a;
                }
                entry.setText(Base64.getEncoder().encodeToString(mac));
            }
        }
        return InvocationResponse.CONTINUE;
    }
}
