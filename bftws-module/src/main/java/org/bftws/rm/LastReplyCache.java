package org.bftws.rm;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the reply to the last delivered request of each sequence. A synchronous client sends message n+1 only after
 * it got the reply to n, so only the last reply can be asked for again; memory is one reply per live sequence.
 */
public final class LastReplyCache implements ReplyCache {

    private record Entry(long messageNumber, CachedReply reply) {
    }

    private final Map<String, Entry> last = new ConcurrentHashMap<>();

    @Override
    public void put(String sequenceId, long messageNumber, CachedReply reply) {
        last.merge(sequenceId, new Entry(messageNumber, reply),
                (old, neu) -> neu.messageNumber() >= old.messageNumber() ? neu : old);
    }

    @Override
    public Optional<CachedReply> get(String sequenceId, long messageNumber) {
        Entry e = last.get(sequenceId);
        return e != null && e.messageNumber() == messageNumber ? Optional.of(e.reply()) : Optional.empty();
    }

    @Override
    public void forget(String sequenceId) {
        last.remove(sequenceId);
    }
}
