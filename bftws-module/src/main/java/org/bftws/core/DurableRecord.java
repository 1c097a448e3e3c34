package org.bftws.core;

import java.util.List;

/**
 * What a node must not forget across a restart (its data directory holds these, issue 5). A node that forgot a
 * prepared certificate could let a view change drop a committed batch; one that forgot which view it announced could
 * vote again in a view it already left. So the adapter makes each record durable before it carries out any output
 * that follows it (in particular before sending the commit a prepared certificate justifies).
 */
public sealed interface DurableRecord {

    /** The node moved to (or towards) {@code view}: after a restart it takes part only in later views. */
    record ViewRecord(int view) implements DurableRecord {
    }

    /** The node prepared this batch (with its request bodies, so it can still be executed after a restart). */
    record PreparedRecord(PreparedCertificate certificate, List<Request> requests) implements DurableRecord {
        public PreparedRecord {
            requests = List.copyOf(requests);
        }
    }

    /** This batch committed at {@code seq}: after a restart the node executes it again on top of its checkpoint. */
    record CommittedRecord(long seq, int view, Batch batch, List<Request> requests) implements DurableRecord {
        public CommittedRecord {
            requests = List.copyOf(requests);
        }
    }

    /**
     * A stable checkpoint with its proof, and the checkpointed state's encoding if this node holds it (agreement-only
     * nodes do not). Everything recorded at or below {@code seq} is covered by it and can be discarded.
     */
    record CheckpointRecord(long seq, Digest digest, List<Checkpoint> proof, byte[] state) implements DurableRecord {
        public CheckpointRecord {
            proof = List.copyOf(proof);
            state = state == null ? null : state.clone();
        }

        @Override
        public byte[] state() {
            return state == null ? null : state.clone();
        }
    }
}
