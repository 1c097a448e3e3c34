package org.bftws.rm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** Replies kept for retransmissions of requests already executed. */
class LastReplyCacheTest {

    static ReplyCache.CachedReply reply(long n) {
        return new ReplyCache.CachedReply(("<r>" + n + "</r>").getBytes(StandardCharsets.UTF_8), "text/xml", false);
    }

    @Test
    void aSequenceKeepsTheRepliesToItsLastDepthRequests() {
        LastReplyCache cache = new LastReplyCache(2);
        for (long n = 1; n <= 3; n++) {
            cache.put("s", n, reply(n));
        }
        assertFalse(cache.get("s", 1).isPresent());
        assertTrue(cache.get("s", 2).isPresent());
        assertTrue(cache.get("s", 3).isPresent());
    }

    @Test
    void aCallerGroupsVirtualSequenceKeepsAsManyRepliesAsARestartedCallerReplicaMayAskForAgain() {
        LastReplyCache cache = new LastReplyCache(2);
        cache.keepDeeper("virtual", 5);
        for (long n = 1; n <= 6; n++) {
            cache.put("virtual", n, reply(n));
            cache.put("other", n, reply(n));
        }
        assertFalse(cache.get("virtual", 1).isPresent());
        assertTrue(cache.get("virtual", 2).isPresent(), "the last five");
        assertFalse(cache.get("other", 4).isPresent(), "other sequences keep the default depth");
        cache.keepDeeper("virtual", 1);
        cache.put("virtual", 7, reply(7));
        assertTrue(cache.get("virtual", 3).isPresent(), "a smaller depth asked later does not shrink it");
    }
}
