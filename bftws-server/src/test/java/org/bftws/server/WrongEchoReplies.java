package org.bftws.server;

import java.util.Iterator;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.HandlerDescription;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.samples.echo.EchoService;

/**
 * Test-only Byzantine behaviour: installed on one replica's out-flow (before its replies are authenticated), it
 * rewrites every echo and append reply that replica sends, so the replica returns authentic, wrong answers.
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
        if (reply == null || !EchoService.NS.equals(reply.getNamespaceURI())) {
            return InvocationResponse.CONTINUE;
        }
        if ("echoResponse".equals(reply.getLocalName()) || "appendResponse".equals(reply.getLocalName())) {
            for (Iterator<OMElement> items = reply.getChildElements(); items.hasNext(); ) {
                OMElement item = items.next();
                if (!"count".equals(item.getLocalName())) {
                    item.setText("WRONG " + item.getText());
                }
            }
            rewritten.incrementAndGet();
        }
        return InvocationResponse.CONTINUE;
    }
}
