package org.bftws.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.axiom.om.OMAbstractFactory;
import org.bftws.core.Checkpoint;
import org.bftws.core.Digest;
import org.bftws.core.Message;
import org.bftws.core.StateSnapshot;
import org.bftws.wire.BundleCodec;
import org.bftws.wire.SignatureCache;
import org.bftws.wire.WireLimits;
import org.junit.jupiter.api.Test;

/** A state snapshot waiting for its peer keeps the signatures its proof embeds, though the cache moves on. */
class SnapshotPinsTest {
    private final BundleCodec codec = new BundleCodec(WireLimits.of(4, 16, 64));

    @Test
    void aQueuedSnapshotCanStillBeEncodedAfterTheNextStableCheckpointMadeTheCacheForgetItsProof() {
        SignatureCache cache = new SignatureCache(100);
        StateSnapshot snapshot = snapshotAt(70, cache);
        SnapshotPins pins = new SnapshotPins(cache);
        pins.pin(snapshot);

        cache.forgetUpTo(80); // checkpoint 80 became stable while the snapshot waited
        List<Message> bundle = List.of(snapshot);
        assertThrows(IllegalStateException.class, () -> codec.encode(bundle, cache, true,
                OMAbstractFactory.getOMFactory(), null), "without the pins it cannot travel");
        assertNotNull(codec.encode(bundle, pins.signaturesFor(bundle), true, OMAbstractFactory.getOMFactory(), null));
        assertEquals(0, pins.size(), "sent, its pins are released");
    }

    @Test
    void pinsOfSnapshotsThatNeverLeaveAreBounded() {
        SignatureCache cache = new SignatureCache(1000);
        SnapshotPins pins = new SnapshotPins(cache);
        for (int i = 1; i <= 3 * SnapshotPins.MAX_PINNED_SNAPSHOTS; i++) {
            pins.pin(snapshotAt(10L * i, cache));
        }
        assertTrue(pins.size() <= SnapshotPins.MAX_PINNED_SNAPSHOTS, "pinned " + pins.size());
    }

    private static StateSnapshot snapshotAt(long seq, SignatureCache cache) {
        byte[] state = ("state at " + seq).getBytes(StandardCharsets.UTF_8);
        Digest d = Digest.of(state);
        List<Checkpoint> proof = List.of(new Checkpoint(seq, d, 0), new Checkpoint(seq, d, 1), new Checkpoint(seq, d, 2));
        for (Checkpoint c : proof) {
            cache.put(c, new byte[] {1, 2, 3, (byte) c.sender()});
        }
        return new StateSnapshot(seq, state, proof, 0);
    }
}
