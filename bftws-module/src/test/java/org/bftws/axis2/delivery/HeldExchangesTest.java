package org.bftws.axis2.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.List;
import org.apache.axis2.context.MessageContext;
import org.junit.jupiter.api.Test;

class HeldExchangesTest {

    private static MessageContext message() {
        MessageContext mc = new MessageContext();
        mc.setProperty(MessageContext.TRANSPORT_OUT, new ByteArrayOutputStream());
        return mc;
    }

    /** Holds {@code x} for no party in particular; returns what the node's limit lets go. */
    private static List<HeldExchanges.Held> anyone(HeldExchanges held, PendingRequest r, HttpExchange x,
                                                   long deadline) {
        return held.hold(r, x, deadline, null, Integer.MAX_VALUE).evicted();
    }

    private static PendingRequest request(long n) {
        return new PendingRequest("s", n, message());
    }

    @Test
    void beyondTheLimitTheOldestHeldExchangeIsLetGo() {
        HeldExchanges held = new HeldExchanges(2);
        PendingRequest r1 = request(1);
        HttpExchange x1 = HttpExchange.of(r1.message());
        assertTrue(anyone(held, r1, x1, Long.MAX_VALUE).isEmpty());
        assertTrue(anyone(held, request(2), HttpExchange.of(message()), Long.MAX_VALUE).isEmpty());
        List<HeldExchanges.Held> letGo = anyone(held, request(3), HttpExchange.of(message()), Long.MAX_VALUE);
        assertEquals(1, letGo.size());
        assertSame(x1, letGo.get(0).exchange());
        assertSame(r1, letGo.get(0).request());
        assertEquals(2, held.size());
    }

    @Test
    void beyondItsOwnLimitAPartysOldestHeldExchangeIsLetGoNeverAnotherPartys() {
        HeldExchanges held = new HeldExchanges(10);
        HttpExchange honest = HttpExchange.of(message());
        held.hold(request(1), honest, Long.MAX_VALUE, "client1", 2);
        HttpExchange first = HttpExchange.of(message());
        held.hold(request(2), first, Long.MAX_VALUE, "hostile", 2);
        held.hold(request(3), HttpExchange.of(message()), Long.MAX_VALUE, "hostile", 2);
        HeldExchanges.Released third = held.hold(request(4), HttpExchange.of(message()), Long.MAX_VALUE, "hostile", 2);
        assertEquals(1, third.overPartyLimit().size());
        assertSame(first, third.overPartyLimit().get(0).exchange(), "the party's own oldest goes");
        assertTrue(third.overNodeLimit().isEmpty());
        assertEquals(3, held.size(), "client1's exchange and hostile's two newest stay");
    }

    @Test
    void answeredExchangesDoNotCountAgainstTheLimit() {
        HeldExchanges held = new HeldExchanges(2);
        HttpExchange x1 = HttpExchange.of(message());
        anyone(held, request(1), x1, Long.MAX_VALUE);
        anyone(held, request(2), HttpExchange.of(message()), Long.MAX_VALUE);
        x1.answer(null);
        assertTrue(anyone(held, request(3), HttpExchange.of(message()), Long.MAX_VALUE).isEmpty(),
                "the answered exchange made room");
        assertEquals(2, held.size());
    }

    @Test
    void onlyUnansweredExchangesPastTheirDeadlineExpire() {
        HeldExchanges held = new HeldExchanges(10);
        HttpExchange early = HttpExchange.of(message());
        HttpExchange answered = HttpExchange.of(message());
        HttpExchange late = HttpExchange.of(message());
        anyone(held, request(1), early, 100);
        anyone(held, request(2), answered, 100);
        anyone(held, request(3), late, 300);
        answered.answer(null);
        List<HeldExchanges.Held> expired = held.expire(200);
        assertEquals(1, expired.size());
        assertSame(early, expired.get(0).exchange());
        assertEquals(1, held.size(), "the answered one is forgotten, the later one still waits");
        assertSame(late, held.expire(300).get(0).exchange());
    }
}
