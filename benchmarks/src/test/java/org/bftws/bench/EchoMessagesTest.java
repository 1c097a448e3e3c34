package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Iterator;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.bftws.samples.echo.EchoService;
import org.junit.jupiter.api.Test;

/** The echo client accepts a reply only when it carries exactly the items its own request sent, in order. */
class EchoMessagesTest {

    private static final OMFactory F = OMAbstractFactory.getOMFactory();

    /** What the echo service does: the request's items under echoResponse. */
    private static OMElement echoOf(OMElement request) {
        OMElement response = F.createOMElement("echoResponse", F.createOMNamespace(EchoService.NS, "e"));
        for (Iterator<OMElement> it = request.getChildElements(); it.hasNext(); ) {
            response.addChild(it.next().cloneOMElement());
        }
        return response;
    }

    @Test
    void theEchoOfTheRequestPasses() {
        assertNull(EchoMessages.problem(echoOf(EchoMessages.request("m7", 10)), "m7", 10));
        assertNull(EchoMessages.problem(echoOf(EchoMessages.request("m7", 0)), "m7", 0));
    }

    @Test
    void theEchoOfAnotherRequestIsCaught() {
        assertEquals("reply item 0 is not the one sent",
                EchoMessages.problem(echoOf(EchoMessages.request("m8", 10)), "m7", 10));
    }

    @Test
    void aTruncatedOrPaddedEchoIsCaught() {
        assertEquals("reply has 9 of the 10 items sent",
                EchoMessages.problem(echoOf(EchoMessages.request("m7", 9)), "m7", 10));
        assertEquals("reply has more than the 9 items sent",
                EchoMessages.problem(echoOf(EchoMessages.request("m7", 10)), "m7", 9));
    }

    @Test
    void reorderedItemsAreCaught() {
        OMElement reply = echoOf(EchoMessages.request("m7", 3));
        OMElement first = reply.getFirstElement();
        first.detach();
        reply.addChild(first);
        assertEquals("reply item 0 is not the one sent", EchoMessages.problem(reply, "m7", 3));
    }

    @Test
    void aReplyThatIsNotAnEchoResponseIsCaught() {
        assertEquals("reply is {" + EchoService.NS + "}echo, not {" + EchoService.NS + "}echoResponse",
                EchoMessages.problem(EchoMessages.request("m7", 1), "m7", 1));
        assertEquals("empty reply", EchoMessages.problem(null, "m7", 1));
    }
}
