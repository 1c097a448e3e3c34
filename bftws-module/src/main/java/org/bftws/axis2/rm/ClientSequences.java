package org.bftws.axis2.rm;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.axis2.AxisFault;
import org.bftws.rm.OutboundSequence;

/**
 * The client role's sequences, one per (target address, sequence key). The first message to a target creates the
 * sequence (CreateSequence); concurrent first messages wait for that one creation.
 */
public final class ClientSequences {

    /** Creates the sequence for a target; called once per key. */
    public interface Creator {
        OutboundSequence create() throws AxisFault;
    }

    private final Map<String, OutboundSequence> byKey = new ConcurrentHashMap<>();
    private final Map<String, Object> locks = new ConcurrentHashMap<>();

    public OutboundSequence obtain(String key, Creator creator) throws AxisFault {
        OutboundSequence s = byKey.get(key);
        if (s != null && !s.isTerminated()) {
            return s;
        }
        synchronized (locks.computeIfAbsent(key, k -> new Object())) {
            s = byKey.get(key);
            if (s == null || s.isTerminated()) {
                s = creator.create();
                byKey.put(key, s);
            }
            return s;
        }
    }

    public Optional<OutboundSequence> find(String key) {
        return Optional.ofNullable(byKey.get(key));
    }

    public Optional<OutboundSequence> remove(String key) {
        return Optional.ofNullable(byKey.remove(key));
    }

    /** Key of a target address and the application's optional sequence key. */
    public static String key(String address, Object sequenceKey) {
        return address + "|" + (sequenceKey == null ? "" : sequenceKey);
    }
}
