package org.bftws.security.mac;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import org.bftws.security.PartyKeystore;

/**
 * The HMAC-SHA256 keys this node shares with each other node of its group (keygen's {@code hmac:PEER} entries), and
 * the MAC computations with them. Thread-safe: a {@link Mac} is made per computation (about a microsecond).
 */
final class PairwiseKeys {
    private final PartyKeystore keys;

    PairwiseKeys(PartyKeystore keys) {
        this.keys = keys;
    }

    String self() {
        return keys.name();
    }

    boolean sharesKeyWith(String peer) {
        return keys.macKeyWith(peer).isPresent();
    }

    /** HMAC-SHA256 of {@code input} under the key shared with {@code peer}; empty when there is no such key. */
    Optional<byte[]> mac(String peer, byte[] input) {
        Optional<SecretKey> key = keys.macKeyWith(peer);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        try {
            Mac mac = Mac.getInstance(PartyKeystore.MAC_ALGORITHM);
            mac.init(key.get());
            return Optional.of(mac.doFinal(input));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 with the key for " + peer + ": " + e.getMessage(), e);
        }
    }

    /** Whether {@code claimed} is the MAC of {@code input} under the key shared with {@code peer}; constant time. */
    boolean verify(String peer, byte[] input, byte[] claimed) {
        return mac(peer, input).map(expected -> MessageDigest.isEqual(expected, claimed)).orElse(false);
    }
}
