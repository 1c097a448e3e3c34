package org.bftws.client;

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

    /**
     * Whether this replica rewrote at least {@code count} replies within a minute. A call returns on f+1 replies, so
     * the Byzantine replica may still be executing the last request when the caller looks: wait, don't sample.
     */
    boolean rewroteAtLeast(int count) throws InterruptedException {
        for (long end = System.nanoTime() + 60_000_000_000L; System.nanoTime() < end; Thread.sleep(10)) {
            if (rewritten.get() >= count) {
                return true;
            }
        }
        return false;
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
