package org.bftws.voting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CallsInFlightTest {

    @Test
    void callsBeyondTheLimitWaitInTheClientUntilOneIsDecided() throws Exception {
        CallsInFlight calls = new CallsInFlight(2);
        assertTrue(calls.admit(10));
        assertTrue(calls.admit(10));
        assertEquals(2, calls.inFlight());
        CompletableFuture<Boolean> third = CompletableFuture.supplyAsync(() -> {
            try {
                return calls.admit(5_000);
            } catch (InterruptedException e) {
                return false;
            }
        });
        Thread.sleep(50);
        assertFalse(third.isDone(), "the third call waits while two are undecided");
        calls.decided();
        assertTrue(third.get(5, TimeUnit.SECONDS), "it goes once one is decided");
        assertEquals(2, calls.inFlight());
    }

    @Test
    void aCallThatFindsNoRoomWithinItsWaitIsRefusedRatherThanQueuedForEver() throws Exception {
        CallsInFlight calls = new CallsInFlight(1);
        assertTrue(calls.admit(10));
        assertFalse(calls.admit(20));
        calls.decided();
        assertEquals(0, calls.inFlight());
    }
}
