package org.bftws.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.bftws.core.Batch;
import org.bftws.core.Checkpoint;
import org.bftws.core.Commit;
import org.bftws.core.Digest;
import org.bftws.core.Message;
import org.bftws.core.PrePrepare;
import org.bftws.core.Prepare;
import org.bftws.core.Status;
import org.junit.jupiter.api.Test;

/** What waited for a peer while its slots became stable is not signed and sent any more; everything else is. */
class SettledMessagesTest {
    private static final Digest D = Digest.of(new byte[] {7});

    @Test
    void orderingMessagesAtOrBelowTheStableCheckpointAndOlderCheckpointsAreLeftOutAndCounted() {
        SettledMessages settled = new SettledMessages();
        Message oldPrepare = new Prepare(0, 16, D, 1);
        Message oldPrePrepare = new PrePrepare(0, 15, Batch.NULL, 0);
        Message oldCommit = new Commit(0, 16, D, 1);
        Message oldCheckpoint = new Checkpoint(8, D, 1);
        Message stableCheckpoint = new Checkpoint(16, D, 1);
        Message livePrepare = new Prepare(0, 17, D, 1);
        Message status = new Status(0, 16, 17, 1);
        List<Message> batch = List.of(oldPrepare, oldPrePrepare, oldCommit, oldCheckpoint, stableCheckpoint,
                livePrepare, status);
        assertSame(batch, settled.unsettled(batch), "nothing is settled before a checkpoint is stable");
        settled.stableCheckpointIs(16);
        assertEquals(List.of(stableCheckpoint, livePrepare, status), settled.unsettled(batch));
        assertEquals(4, settled.skipped());
    }
}
