package org.bftws.axis2;

import java.util.Iterator;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.HandlerDescription;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.samples.echo.EchoService;

/**
 * Test-only Byzantine behaviour: installed on one replica's out-flow (before signing), it rewrites every echo reply
 * that replica sends, so the replica returns authentic, properly signed, wrong answers.
 */
final class WrongEchoReplies extends AbstractHandler {
    final AtomicInteger rewritten = new AtomicInteger();

    WrongEchoReplies() {
        init(new HandlerDescription("WrongEchoReplies"));
    }

    @Override
    public InvocationResponse invoke(MessageContext mc) {
        OMElement reply = mc.isServerSide() && mc.getEnvelope() != null ? mc.getEnvelope().getBody().getFirstElement()
                : null;
        if (reply != null && EchoService.NS.equals(reply.getNamespaceURI())
                && "echoResponse".equals(reply.getLocalName())) {
            for (Iterator<OMElement> items = reply.getChildElements(); items.hasNext(); ) {
                OMElement item = items.next();
                item.setText("WRONG " + item.getText());
            }
            rewritten.incrementAndGet();
        }
        return InvocationResponse.CONTINUE;
    }
}
