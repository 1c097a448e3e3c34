package org.bftws.wire;

import org.bftws.core.Checkpoint;
import org.bftws.core.Claim;
import org.bftws.core.Commit;
import org.bftws.core.CommittedBatch;
import org.bftws.core.FetchCommitted;
import org.bftws.core.FetchRequests;
import org.bftws.core.FetchState;
import org.bftws.core.ForwardedRequests;
import org.bftws.core.Message;
import org.bftws.core.NewView;
import org.bftws.core.PrePrepare;
import org.bftws.core.Prepare;
import org.bftws.core.Reply;
import org.bftws.core.SignedClaim;
import org.bftws.core.StateSnapshot;
import org.bftws.core.Status;
import org.bftws.core.ViewChange;

/**
 * The core's message types with their wire identity: the tag byte that opens their canonical form and the local name
 * of their XML element. Tags are part of the signed and MACed bytes: never renumber one, only add.
 */
public enum MessageKind {
    PRE_PREPARE(1, "PrePrepare"),
    PREPARE(2, "Prepare"),
    COMMIT(3, "Commit"),
    CHECKPOINT(4, "Checkpoint"),
    VIEW_CHANGE(5, "ViewChange"),
    NEW_VIEW(6, "NewView"),
    FETCH_REQUESTS(7, "FetchRequests"),
    FORWARDED_REQUESTS(8, "ForwardedRequests"),
    FETCH_STATE(9, "FetchState"),
    STATE_SNAPSHOT(10, "StateSnapshot"),
    STATUS(11, "Status"),
    REPLY(12, "Reply"),
    COMMITTED_BATCH(13, "CommittedBatch"),
    FETCH_COMMITTED(14, "FetchCommitted"),
    CLAIM(15, "Claim"),
    SIGNED_CLAIM(16, "SignedClaim");

    private final int tag;
    private final String element;

    MessageKind(int tag, String element) {
        this.tag = tag;
        this.element = element;
    }

    public int tag() {
        return tag;
    }

    /** Local name of the message's element in {@link WireNames#NS}. */
    public String element() {
        return element;
    }

    /** The kind whose element has local name {@code local}, or null. */
    public static MessageKind byElement(String local) {
        for (MessageKind k : values()) {
            if (k.element.equals(local)) {
                return k;
            }
        }
        return null;
    }

    /** The kind whose canonical form opens with {@code tag}, or null. */
    public static MessageKind byTag(int tag) {
        for (MessageKind k : values()) {
            if (k.tag == tag) {
                return k;
            }
        }
        return null;
    }

    public static MessageKind of(Message m) {
        // Java 17 has no pattern switch without preview; the sealed interface keeps this list complete in review
        if (m instanceof PrePrepare) {
            return PRE_PREPARE;
        } else if (m instanceof Prepare) {
            return PREPARE;
        } else if (m instanceof Commit) {
            return COMMIT;
        } else if (m instanceof Checkpoint) {
            return CHECKPOINT;
        } else if (m instanceof ViewChange) {
            return VIEW_CHANGE;
        } else if (m instanceof NewView) {
            return NEW_VIEW;
        } else if (m instanceof FetchRequests) {
            return FETCH_REQUESTS;
        } else if (m instanceof ForwardedRequests) {
            return FORWARDED_REQUESTS;
        } else if (m instanceof FetchState) {
            return FETCH_STATE;
        } else if (m instanceof StateSnapshot) {
            return STATE_SNAPSHOT;
        } else if (m instanceof Status) {
            return STATUS;
        } else if (m instanceof Reply) {
            return REPLY;
        } else if (m instanceof CommittedBatch) {
            return COMMITTED_BATCH;
        } else if (m instanceof FetchCommitted) {
            return FETCH_COMMITTED;
        } else if (m instanceof Claim) {
            return CLAIM;
        } else if (m instanceof SignedClaim) {
            return SIGNED_CLAIM;
        }
        throw new IllegalArgumentException("not a core message: " + m.getClass().getName());
    }
}
