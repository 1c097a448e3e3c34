package org.bftws.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.bftws.core.Checkpoint;
import org.bftws.core.Destination;
import org.bftws.core.Digest;
import org.bftws.core.FetchState;
import org.bftws.core.NewView;
import org.bftws.core.Output;
import org.junit.jupiter.api.Test;

/** What the replica's recovery timings measure, on a clock the test moves (milliseconds). */
class MeasurementsTest {

    private static final int SELF = 1;
    private final AtomicLong nowMs = new AtomicLong();
    private final Measurements m = new Measurements(SELF, () -> nowMs.get() * 1_000_000L);

    private static Output send(org.bftws.core.Message message) {
        return new Output.Send(new Destination.AllNodes(), message);
    }

    private static Checkpoint checkpoint(long seq, int sender) {
        return new Checkpoint(seq, Digest.of(new byte[] {(byte) seq}), sender);
    }

    private Measurements.Summary summary(Measurements.Kind kind) {
        return m.summaries().get(kind);
    }

    @Test
    void checkpointLatencyRunsFromGetStateUntilTheOwnCheckpointMessageLeavesAndStabilityFromThereOn() {
        nowMs.set(100);
        m.checkpointStarted(10);
        assertEquals(3, m.stateTaken(new byte[3]).length);
        nowMs.set(130);
        m.observe(List.of(send(checkpoint(10, SELF))), 0);
        nowMs.set(135);
        m.observe(List.of(send(checkpoint(10, 2))), 0); // another node's checkpoint: not ours, nothing stable yet
        nowMs.set(180);
        m.observe(List.of(), 10);
        assertEquals(new Measurements.Summary(1, 30, 30, 30, 30), summary(Measurements.Kind.CHECKPOINT));
        assertEquals(new Measurements.Summary(1, 50, 50, 50, 50), summary(Measurements.Kind.STABLE));
        assertEquals(3, m.checkpointBytes());
    }

    @Test
    void aLaterStableCheckpointSettlesEveryOwnCheckpointBelowItOnce() {
        m.checkpointStarted(10);
        m.observe(List.of(send(checkpoint(10, SELF))), 0);
        nowMs.set(20);
        m.checkpointStarted(20);
        m.observe(List.of(send(checkpoint(20, SELF))), 0);
        nowMs.set(50);
        m.observe(List.of(), 20);
        m.observe(List.of(), 20);
        Measurements.Summary stable = summary(Measurements.Kind.STABLE);
        assertEquals(2, stable.count());
        assertEquals(50, stable.maxMs());
        assertEquals(30, stable.lastMs());
    }

    @Test
    void stateTransferRunsFromTheFirstFetchUntilTheStateIsInstalledNotFromItsRetries() {
        nowMs.set(1000);
        m.observe(List.of(send(new FetchState(64, SELF))), 0);
        nowMs.set(1500);
        m.observe(List.of(send(new FetchState(64, SELF))), 0);
        nowMs.set(1700);
        m.observe(List.of(new Output.InstallState(64, new byte[1234])), 0);
        nowMs.set(1800);
        m.observe(List.of(new Output.StateTransferred(64)), 64);
        assertEquals(new Measurements.Summary(1, 800, 800, 800, 800), summary(Measurements.Kind.STATE_TRANSFER));
        assertEquals(1234, m.transferBytes());
    }

    @Test
    void theNewPrimaryIsTimedUntilItSendsTheNewViewAndEveryReplicaUntilItEntersTheView() {
        nowMs.set(5000);
        m.observe(List.of(new Output.ViewChangeStarted(1, "timeout")), 0);
        nowMs.set(5400);
        m.observe(List.of(new Output.ViewChangeStarted(2, "no new-view")), 0); // the first start counts
        nowMs.set(5900);
        m.observe(List.of(send(new NewView(1, List.of(), List.of(), SELF)), new Output.ViewInstalled(1, SELF)), 0);
        assertEquals(new Measurements.Summary(1, 900, 900, 900, 900), summary(Measurements.Kind.NEW_VIEW));
        assertEquals(new Measurements.Summary(1, 900, 900, 900, 900), summary(Measurements.Kind.VIEW_CHANGE));
        nowMs.set(7000);
        m.observe(List.of(new Output.ViewInstalled(2, 2)), 0); // entered without suspecting: nothing to time
        assertEquals(1, summary(Measurements.Kind.VIEW_CHANGE).count());
    }

    @Test
    void aBackupIsNotCountedAsTheNewPrimaryAndTheLineNamesEverySeries() {
        m.observe(List.of(new Output.ViewChangeStarted(1, "timeout")), 0);
        nowMs.set(300);
        m.observe(List.of(send(new NewView(1, List.of(), List.of(), 2)), new Output.ViewInstalled(1, 2)), 0);
        assertEquals(0, summary(Measurements.Kind.NEW_VIEW).count());
        String line = m.describe();
        assertTrue(line.startsWith("checkpoint=0/-/-/-/- until-stable=0/-/-/-/- transfer=0/-/-/-/- new-view=0/-/-/-/- "
                + "view-change=1/300.00/300.00/300.00/300.00 "), line);
        assertTrue(line.endsWith(" checkpoint-bytes=-1 transfer-bytes=-1"), line);
    }

    @Test
    void pendingCheckpointStartsStayBoundedWhenTheirMessagesNeverLeave() {
        for (long seq = 1; seq <= 10_000; seq++) {
            m.checkpointStarted(seq);
        }
        nowMs.set(7);
        m.observe(List.of(send(checkpoint(10_000, SELF))), 0);
        assertEquals(1, summary(Measurements.Kind.CHECKPOINT).count());
        m.observe(List.of(send(checkpoint(5, SELF))), 0); // its start was dropped long ago
        assertEquals(1, summary(Measurements.Kind.CHECKPOINT).count());
    }
}
