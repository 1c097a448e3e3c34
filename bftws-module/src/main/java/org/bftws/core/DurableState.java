package org.bftws.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a node recovers from after a restart: the latest stable checkpoint, the batches committed after it, the
 * highest-view prepared certificate of every slot after it, and the highest view it moved to. Built by replaying the
 * records the node persisted, in order.
 */
public final class DurableState {

    private DurableRecord.CheckpointRecord checkpoint;
    private final TreeMap<Long, DurableRecord.CommittedRecord> committed = new TreeMap<>();
    private final TreeMap<Long, DurableRecord.PreparedRecord> prepared = new TreeMap<>();
    private int view;

    /** Folds one persisted record in (records are replayed in the order they were written). */
    public void apply(DurableRecord r) {
        if (r instanceof DurableRecord.ViewRecord v) {
            view = Math.max(view, v.view());
        } else if (r instanceof DurableRecord.PreparedRecord p) {
            DurableRecord.PreparedRecord earlier = prepared.get(p.certificate().seq());
            if (earlier == null || earlier.certificate().view() <= p.certificate().view()) {
                prepared.put(p.certificate().seq(), p);
            }
        } else if (r instanceof DurableRecord.CommittedRecord c) {
            committed.put(c.seq(), c);
        } else if (r instanceof DurableRecord.CheckpointRecord cp) {
            boolean newer = checkpoint == null || cp.seq() > checkpoint.seq()
                    || (cp.seq() == checkpoint.seq() && checkpoint.state() == null && cp.state() != null);
            if (newer) {
                checkpoint = cp;
                committed.headMap(cp.seq(), true).clear();
                prepared.headMap(cp.seq(), true).clear();
            }
        }
    }

    public static DurableState of(List<DurableRecord> records) {
        DurableState s = new DurableState();
        records.forEach(s::apply);
        return s;
    }

    public DurableRecord.CheckpointRecord checkpoint() {
        return checkpoint;
    }

    public Map<Long, DurableRecord.CommittedRecord> committed() {
        return committed;
    }

    public Map<Long, DurableRecord.PreparedRecord> prepared() {
        return prepared;
    }

    public int view() {
        return view;
    }

    public boolean isEmpty() {
        return checkpoint == null && committed.isEmpty() && prepared.isEmpty() && view == 0;
    }

    /**
     * This state with every request body passed through {@code identify}: a journal holds bytes, and requests named by
     * their identity ({@link Request#identified}) get it back from them as when they were received.
     */
    public DurableState withRequests(java.util.function.UnaryOperator<Request> identify) {
        DurableState s = new DurableState();
        s.checkpoint = checkpoint;
        s.view = view;
        committed.forEach((seq, c) -> s.committed.put(seq, new DurableRecord.CommittedRecord(c.seq(), c.view(),
                c.batch(), c.requests().stream().map(identify).toList())));
        prepared.forEach((seq, p) -> s.prepared.put(seq, new DurableRecord.PreparedRecord(p.certificate(),
                p.requests().stream().map(identify).toList())));
        return s;
    }

    /** The records that reproduce this state: what a compacted log holds. */
    public List<DurableRecord> records() {
        List<DurableRecord> out = new ArrayList<>();
        if (checkpoint != null) {
            out.add(checkpoint);
        }
        out.add(new DurableRecord.ViewRecord(view));
        out.addAll(prepared.values());
        out.addAll(committed.values());
        return out;
    }
}
