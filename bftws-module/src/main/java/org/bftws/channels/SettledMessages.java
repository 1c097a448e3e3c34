package org.bftws.channels;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bftws.core.Checkpoint;
import org.bftws.core.Commit;
import org.bftws.core.Message;
import org.bftws.core.PrePrepare;
import org.bftws.core.Prepare;

/**
 * Leaves out, just before a peer's messages are signed and sent, the ordering messages of slots this node has
 * garbage-collected since it queued them: pre-prepares, prepares and commits at or below its stable checkpoint and
 * checkpoints below it. They can no longer help the peer (a node that lacks those slots catches up by state transfer
 * from the stable checkpoint's proof, as PBFT discards its log below the low watermark), and sending them did harm:
 * a peer that was down for a while had hundreds queued, and this node signed its own among them when the peer came
 * back, which filled its signature cache with slots long settled and pushed out the stable checkpoint's proof, so the
 * state snapshot the peer then asked for could not be sent (ProcessFaultsTest, a backup restarted empty).
 * Thread-safe.
 */
public final class SettledMessages {
    private volatile long stableCheckpoint;
    private final AtomicLong skipped = new AtomicLong();

    /** This node's stable checkpoint is now {@code seq}. */
    public void stableCheckpointIs(long seq) {
        this.stableCheckpoint = seq;
    }

    /** {@code batch} without its settled messages (the same list when there are none). */
    List<Message> unsettled(List<Message> batch) {
        long stable = stableCheckpoint;
        if (stable == 0 || batch.stream().noneMatch(m -> settled(m, stable))) {
            return batch;
        }
        List<Message> out = new ArrayList<>(batch.size());
        for (Message m : batch) {
            if (settled(m, stable)) {
                skipped.incrementAndGet();
            } else {
                out.add(m);
            }
        }
        return out;
    }

    static boolean settled(Message m, long stable) {
        return (m instanceof PrePrepare pp && pp.seq() <= stable) || (m instanceof Prepare p && p.seq() <= stable)
                || (m instanceof Commit c && c.seq() <= stable) || (m instanceof Checkpoint c && c.seq() < stable);
    }

    public long skipped() {
        return skipped.get();
    }
}
