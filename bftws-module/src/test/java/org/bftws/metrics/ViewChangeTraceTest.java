package org.bftws.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.bftws.core.Batch;
import org.bftws.core.Commit;
import org.bftws.core.Destination;
import org.bftws.core.Digest;
import org.bftws.core.Output;
import org.bftws.core.PrePrepare;
import org.bftws.core.Prepare;
import org.bftws.core.Reply;
import org.bftws.core.RequestId;
import org.junit.jupiter.api.Test;

/** The failover steps one replica logs, timed from its suspicion on a clock the test moves (milliseconds). */
class ViewChangeTraceTest {

    private static final int SELF = 2;
    private static final Digest D = Digest.of(new byte[] {1});
    private final AtomicLong nowMs = new AtomicLong();
    private final ViewChangeTrace trace = new ViewChangeTrace("replica2", SELF, () -> nowMs.get() * 1_000_000L);

    private void at(long ms, Output... outputs) {
        nowMs.set(ms);
        trace.observe(List.of(outputs));
    }

    private static Output send(org.bftws.core.Message m) {
        return new Output.Send(new Destination.AllNodes(), m);
    }

    private static Output reply(int view) {
        return new Output.Send(new Destination.Client("c"), new Reply(new RequestId("c", 7), view, new byte[0], SELF));
    }

    @Test
    void aBackupsStepsAreTimedFromItsSuspicionUntilItsFirstReplyInTheNewView() {
        at(1000, new Output.ViewChangeStarted(1, "timeout"));
        at(1110, new Output.ViewInstalled(1, 1));
        at(1112, send(new Prepare(1, 5, D, SELF)));
        at(1120, send(new Commit(1, 5, D, SELF)), new Output.Committed(5, 1, D),
                new Output.Execute(5, 1, List.of()));
        at(1130, new Output.Committed(6, 1, D));
        at(1150, reply(1));
        Map<ViewChangeTrace.Step, Double> steps = trace.steps();
        assertEquals(110.0, steps.get(ViewChangeTrace.Step.VIEW_ENTERED));
        assertEquals(112.0, steps.get(ViewChangeTrace.Step.PREPARE_SENT));
        assertEquals(120.0, steps.get(ViewChangeTrace.Step.COMMITTED), "the first commit counts, not a later one");
        assertEquals(150.0, steps.get(ViewChangeTrace.Step.REPLY));
        assertFalse(steps.containsKey(ViewChangeTrace.Step.EXECUTE), "a null batch executes nothing for a client");
        assertFalse(steps.containsKey(ViewChangeTrace.Step.NEW_VIEW_SENT), "a backup sends no new-view");
    }

    @Test
    void messagesAndRepliesOfTheOldViewDuringTheViewChangeAreNotStepsOfTheNewOne() {
        at(0, new Output.ViewChangeStarted(4, "timeout"));
        at(5, new Output.Committed(9, 3, D), reply(3), send(new PrePrepare(3, 10, Batch.NULL, SELF)));
        assertTrue(trace.steps().isEmpty());
    }

    @Test
    void aLaterTargetWhileStillChangingKeepsTheFirstSuspicionsClockAndANewSuspicionAfterEnteringStartsAgain() {
        at(0, new Output.ViewChangeStarted(1, "timeout"));
        at(2000, new Output.ViewChangeStarted(2, "no new-view for view 1"));
        at(2100, new Output.ViewInstalled(2, 2), send(new PrePrepare(2, 3, Batch.NULL, SELF)));
        assertEquals(2100.0, trace.steps().get(ViewChangeTrace.Step.VIEW_ENTERED));
        assertEquals(2100.0, trace.steps().get(ViewChangeTrace.Step.PRE_PREPARE_SENT));
        at(5000, new Output.ViewChangeStarted(3, "timeout")); // no reply in view 2 yet, but a new failover
        at(5040, new Output.ViewInstalled(3, 3));
        assertEquals(Map.of(ViewChangeTrace.Step.VIEW_ENTERED, 40.0), trace.steps());
    }
}
