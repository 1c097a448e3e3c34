package org.bftws.rm;

import java.util.Optional;

/**
 * Replies kept so a retransmitted, already executed request is answered without executing it again. In WS-RM-only
 * mode {@link LastReplyCache} keeps the reply to the last delivered request of each sequence; in BFT mode the PBFT
 * core's last-reply table (part of the checkpointed state) implements this interface.
 */
public interface ReplyCache {

    /** A serialised reply envelope exactly as it went on the wire; {@code fault} when it is a SOAP fault. */
    record CachedReply(byte[] envelope, String contentType, boolean fault) {
    }

    void put(String sequenceId, long messageNumber, CachedReply reply);

    /** The reply to message {@code messageNumber} of the sequence, if it is still kept. */
    Optional<CachedReply> get(String sequenceId, long messageNumber);

    /** The sequence was terminated: its replies are no longer needed. */
    void forget(String sequenceId);
}
