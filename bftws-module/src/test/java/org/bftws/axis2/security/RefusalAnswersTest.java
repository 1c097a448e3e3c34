package org.bftws.axis2.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayInputStream;
import javax.xml.namespace.QName;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFault;
import org.bftws.security.RefusalReason;
import org.junit.jupiter.api.Test;

/**
 * The constant answers to refused requests: for every reason, in SOAP 1.1 and 1.2, a well-formed unsigned SOAP fault
 * whose code is the reason's WS-Security fault code and whose text is the reason's short name and nothing else.
 */
class RefusalAnswersTest {

    private static SOAPEnvelope parse(byte[] bytes) {
        return OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(bytes), "UTF-8").getSOAPEnvelope();
    }

    @Test
    void everyReasonHasAnUnsignedFaultInBothSoapVersionsWithItsCodeAndShortNameOnly() {
        for (RefusalReason r : RefusalReason.values()) {
            for (boolean soap11 : new boolean[] {true, false}) {
                SOAPEnvelope env = parse(RefusalAnswers.envelope(soap11, r));
                SOAPFault fault = env.getBody().getFault();
                String where = r + (soap11 ? " SOAP 1.1" : " SOAP 1.2");
                assertNull(env.getHeader(), where + ": no header, so no signature and nothing echoed");
                QName code = soap11 ? fault.getCode().getValueAsQName()
                        : fault.getCode().getSubCode().getValueAsQName();
                assertEquals(r.faultCode(), code, where);
                String text = soap11 ? fault.getReason().getText() : fault.getReason().getFirstSOAPText().getText();
                assertEquals("BFT-WS security refused the message: " + r.shortName(), text, where);
            }
        }
    }
}
