package org.bftws.bench.byzantine;

import java.util.Iterator;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.HandlerDescription;
import org.apache.axis2.engine.AxisConfiguration;
import org.apache.axis2.engine.Phase;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.samples.echo.EchoService;

/**
 * {@code wrong-replies}: a handler in the replica's out-flow, before the bftws module authenticates its replies,
 * rewrites every echo and append reply it sends (each item, the log digest), so the replica answers with authentic
 * replies of the wrong content. It orders and executes like a correct replica, so its state stays the group's. The
 * client's Voter outvotes it (f+1 matching replies) and counts each wrong reply it saw before deciding as
 * {@code dissenting}.
 */
final class WrongReplies extends AbstractHandler {

    /** The out-flow phase the bftws module's handlers come after. */
    private static final String PHASE = "MessageOut";

    private final AtomicLong rewritten = new AtomicLong();

    WrongReplies() {
        init(new HandlerDescription("ByzantineWrongReplies"));
    }

    /** Adds the handler to {@code axis}'s out-flow. */
    static void install(AxisConfiguration axis) {
        WrongReplies handler = new WrongReplies();
        for (Object phase : axis.getOutFlowPhases()) {
            if (phase instanceof Phase p && PHASE.equals(p.getPhaseName())) {
                p.addHandler(handler);
                return;
            }
        }
        throw new IllegalStateException("axis2.xml has no out-flow phase " + PHASE + " for the wrong-replies handler");
    }

    @Override
    public InvocationResponse invoke(MessageContext mc) {
        OMElement reply = mc.isServerSide() && mc.getEnvelope() != null ? mc.getEnvelope().getBody().getFirstElement()
                : null;
        if (reply != null && EchoService.NS.equals(reply.getNamespaceURI())
                && ("echoResponse".equals(reply.getLocalName()) || "appendResponse".equals(reply.getLocalName()))) {
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
