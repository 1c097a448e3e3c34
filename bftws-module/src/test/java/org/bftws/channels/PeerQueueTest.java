package org.bftws.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bftws.core.Commit;
import org.bftws.core.Digest;
import org.bftws.core.Message;
import org.bftws.core.Status;
import org.junit.jupiter.api.Test;

class PeerQueueTest {

    private static final Digest D = Digest.of(new byte[] {1});

    @Test
    void aMessageStillWaitingIsNotQueuedAgain() throws InterruptedException {
        PeerQueue q = new PeerQueue(100);
        Commit c = new Commit(0, 1, D, 2);
        q.offer(c);
        q.offer(c);
        assertEquals(List.of(c), q.take(10, 0));
        assertEquals(1, q.duplicates());
        q.offer(c);
        assertEquals(List.of(c), q.take(10, 0), "once sent, a retransmission is queued again");
    }

    @Test
    void claimsWaitBehindOrderingMessagesButKeepAQuarterOfEachBatch() throws InterruptedException {
        PeerQueue q = new PeerQueue(100);
        for (int i = 0; i < 10; i++) {
            q.offer(new org.bftws.core.Claim(List.of(), i));
        }
        for (int n = 1; n <= 10; n++) {
            q.offer(new Commit(0, n, D, 2));
        }
        List<Message> first = q.take(8, 0);
        assertEquals(6, first.stream().filter(m -> m instanceof Commit).count(), "ordering messages first");
        assertEquals(2, first.stream().filter(m -> m instanceof org.bftws.core.Claim).count(), "a quarter for claims");
        assertTrue(first.get(0) instanceof Commit, "offered after the claims, sent before them");
        List<Message> rest = q.take(100, 0);
        assertEquals(12, rest.size());
        assertEquals(0, q.size());
    }

    @Test
    void onlyTheNewestStatusWaits() throws InterruptedException {
        PeerQueue q = new PeerQueue(100);
        Commit c = new Commit(0, 1, D, 2);
        Status older = new Status(0, 0, 1, 2);
        Status newer = new Status(0, 0, 2, 2);
        q.offer(older);
        q.offer(c);
        q.offer(newer);
        List<Message> taken = q.take(10, 0);
        assertEquals(2, taken.size());
        assertSame(c, taken.get(0));
        assertSame(newer, taken.get(1));
    }

    @Test
    void beyondTheLimitTheOldestMessagesAreDropped() throws InterruptedException {
        PeerQueue q = new PeerQueue(2);
        Commit a = new Commit(0, 1, D, 2);
        Commit b = new Commit(0, 2, D, 2);
        Commit c = new Commit(0, 3, D, 2);
        q.offer(a);
        q.offer(b);
        q.offer(c);
        assertEquals(List.of(b, c), q.take(10, 0));
        q.offer(a);
        assertEquals(List.of(a), q.take(10, 0), "a dropped message is no longer counted as waiting");
    }

    @Test
    void takeHandsOutAtMostTheBundleSizeAndWaitsWhenEmpty() throws InterruptedException {
        PeerQueue q = new PeerQueue(100);
        for (int i = 1; i <= 5; i++) {
            q.offer(new Commit(0, i, D, 2));
        }
        assertEquals(3, q.take(3, 0).size());
        assertEquals(2, q.take(3, 0).size());
        long start = System.nanoTime();
        assertTrue(q.take(3, 50).isEmpty());
        assertTrue(System.nanoTime() - start >= 40_000_000L, "it waited for messages before giving up");
    }
}
