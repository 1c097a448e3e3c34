package org.bftws.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class SequenceOrderTest {

    @Test
    void shuffledAndDuplicatedArrivalsAreReleasedOnceEachInMessageNumberOrder() {
        for (long seed = 1; seed <= 50; seed++) {
            Random rnd = new Random(seed);
            List<Long> arrivals = new ArrayList<>();
            for (long n = 1; n <= 100; n++) {
                arrivals.add(n);
                if (rnd.nextInt(4) == 0) {
                    arrivals.add(n);
                }
            }
            Collections.shuffle(arrivals, rnd);
            SequenceOrder<String> order = new SequenceOrder<>();
            List<Long> released = new ArrayList<>();
            for (long n : arrivals) {
                order.add("s", n, "m" + n);
                order.poll().ifPresent(r -> released.add(r.messageNumber()));
                for (var r = order.poll(); r.isPresent(); r = order.poll()) {
                    released.add(r.get().messageNumber());
                }
            }
            List<Long> expected = new ArrayList<>();
            for (long n = 1; n <= 100; n++) {
                expected.add(n);
            }
            assertEquals(expected, released, "seed " + seed);
            assertEquals(0, order.buffered());
        }
    }

    @Test
    void aGapHoldsBackOnlyItsOwnSequence() {
        SequenceOrder<String> order = new SequenceOrder<>();
        order.add("a", 2, "a2");
        order.add("b", 1, "b1");
        assertEquals("b1", order.poll().orElseThrow().item());
        assertTrue(order.poll().isEmpty());
        assertEquals(1, order.buffered());
        order.add("a", 1, "a1");
        assertEquals("a1", order.poll().orElseThrow().item());
        assertEquals("a2", order.poll().orElseThrow().item());
    }

    @Test
    void backoffDoublesUpToItsCapAndStopsAtTheLimit() {
        Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofMillis(500), 5);
        assertEquals(Duration.ofMillis(100), b.delayBefore(1));
        assertEquals(Duration.ofMillis(200), b.delayBefore(2));
        assertEquals(Duration.ofMillis(400), b.delayBefore(3));
        assertEquals(Duration.ofMillis(500), b.delayBefore(4));
        assertTrue(b.allows(5));
        assertTrue(!b.allows(6));
    }

    @Test
    void theLastReplyCacheAnswersOnlyForTheLastDeliveredMessages() {
        LastReplyCache cache = new LastReplyCache(1);
        cache.put("s", 1, new ReplyCache.CachedReply(new byte[] {1}, "text/xml", false));
        cache.put("s", 2, new ReplyCache.CachedReply(new byte[] {2}, "text/xml", false));
        assertTrue(cache.get("s", 1).isEmpty());
        assertEquals(2, cache.get("s", 2).orElseThrow().envelope()[0]);
        cache.forget("s");
        assertTrue(cache.get("s", 2).isEmpty());
    }

    @Test
    void aMulticastMessageIsSettledOnlyWhenEveryDestinationAcknowledgedIt() {
        OutboundSequence s = new OutboundSequence("urn:uuid:x", "u");
        assertEquals(1, s.nextMessageNumber());
        assertEquals(2, s.nextMessageNumber());
        s.acknowledged("r0", List.of(new AckRanges.Range(1, 2)));
        s.acknowledged("r1", List.of(new AckRanges.Range(1, 1)));
        assertTrue(s.isSettled(1, java.util.Set.of("r0", "r1")));
        assertTrue(!s.isSettled(2, java.util.Set.of("r0", "r1")));
    }
}
