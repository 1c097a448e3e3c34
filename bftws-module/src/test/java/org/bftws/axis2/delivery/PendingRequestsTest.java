package org.bftws.axis2.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayOutputStream;
import java.util.List;
import org.apache.axis2.context.MessageContext;
import org.junit.jupiter.api.Test;

/**
 * Copies of one request arrive together (a nested request's copy from each caller replica): whichever order their
 * threads reach the pending table in, every copy's exchange ends up waiting on the one request that is executed, so
 * each is answered with its reply and none waits for its hold timeout.
 */
class PendingRequestsTest {

    private static PendingRequest waitingOn(HttpExchange x) {
        MessageContext mc = new MessageContext();
        mc.setProperty(MessageContext.TRANSPORT_OUT, new ByteArrayOutputStream());
        PendingRequest r = new PendingRequest("s", 7, mc);
        r.addExchange(x);
        return r;
    }

    private static HttpExchange exchange() {
        MessageContext mc = new MessageContext();
        mc.setProperty(MessageContext.TRANSPORT_OUT, new ByteArrayOutputStream());
        return HttpExchange.of(mc);
    }

    @Test
    void aCopyWaitingForItsReplyNeverDisplacesTheAcceptedRequestItCopies() {
        PendingRequests pending = new PendingRequests();
        HttpExchange admitted = exchange();
        HttpExchange joined = exchange();
        PendingRequest accepted = waitingOn(admitted);
        accepted.addExchange(joined);
        pending.addTakingOver(accepted);

        HttpExchange late = exchange(); // found nothing pending a moment ago, then waits for the reply itself
        PendingRequest kept = pending.addIfAbsent(waitingOn(late));
        assertSame(accepted, kept);
        kept.addExchange(late);

        assertSame(accepted, pending.find("s", 7).orElseThrow());
        assertEquals(List.of(admitted, joined, late), pending.find("s", 7).orElseThrow().close());
    }

    @Test
    void anAcceptedRequestTakesOverTheExchangesOfACopyThatWaitedBeforeIt() {
        PendingRequests pending = new PendingRequests();
        HttpExchange early = exchange();
        pending.addIfAbsent(waitingOn(early));

        HttpExchange admitted = exchange();
        PendingRequest accepted = waitingOn(admitted);
        pending.addTakingOver(accepted);

        assertSame(accepted, pending.find("s", 7).orElseThrow());
        assertEquals(List.of(admitted, early), accepted.close());
    }
}
