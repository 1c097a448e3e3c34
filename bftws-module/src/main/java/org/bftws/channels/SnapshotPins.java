package org.bftws.channels;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.bftws.core.Message;
import org.bftws.core.StateSnapshot;
import org.bftws.wire.SignatureCache;
import org.bftws.wire.SignatureSource;

/**
 * Keeps the signatures a state snapshot's proof embeds from the moment the snapshot is queued for a peer until it is
 * encoded. A state of megabytes can wait in the queue (or behind another bundle) while the group makes the next
 * checkpoint stable, and the signature cache then forgets the proof's signatures: the snapshot could no longer be
 * encoded ("no signature known for Checkpoint ..."), and the node that needed it waited for a retry that cost a
 * whole state again. Only signatures the cache held, hence verified ones, are kept. Thread-safe.
 */
public final class SnapshotPins {
    /** Snapshots pinned at most; more means the queue dropped some (peer down): those pins are let go. */
    static final int MAX_PINNED_SNAPSHOTS = 8;

    private final SignatureCache cache;
    private final Map<StateSnapshot, Map<Message, byte[]>> pins = new IdentityHashMap<>();

    SnapshotPins(SignatureCache cache) {
        this.cache = cache;
    }

    /** Takes the proof's signatures from the cache now. */
    void pin(StateSnapshot snapshot) {
        Map<Message, byte[]> signatures = new HashMap<>();
        for (Message c : snapshot.proof()) {
            cache.signatureOf(c).ifPresent(sig -> signatures.put(c, sig));
        }
        synchronized (pins) {
            if (pins.size() >= MAX_PINNED_SNAPSHOTS) {
                pins.clear();
            }
            pins.put(snapshot, signatures);
        }
    }

    /** The cache, then the signatures pinned for the snapshots of {@code bundle}, which are released. */
    public SignatureSource signaturesFor(List<Message> bundle) {
        Map<Message, byte[]> pinned = new HashMap<>();
        synchronized (pins) {
            for (Message m : bundle) {
                Map<Message, byte[]> p = m instanceof StateSnapshot ? pins.remove(m) : null;
                if (p != null) {
                    pinned.putAll(p);
                }
            }
        }
        if (pinned.isEmpty()) {
            return cache;
        }
        return m -> cache.signatureOf(m).or(() -> Optional.ofNullable(pinned.get(m)));
    }

    int size() {
        synchronized (pins) {
            return pins.size();
        }
    }
}
