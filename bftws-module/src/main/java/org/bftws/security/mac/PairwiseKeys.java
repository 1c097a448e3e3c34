package org.bftws.security.mac;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import org.bftws.security.PartyKeystore;

/**
 * The HMAC-SHA256 keys this party shares with others (keygen's {@code hmac:PEER} entries), and the MAC computations
 * with them. Thread-safe: each thread keeps one initialised {@link Mac} per peer (looking up the provider for every
 * message showed up in replica profiles).
 */
final class PairwiseKeys {
    private final PartyKeystore keys;
    private final ThreadLocal<java.util.Map<String, Mac>> macs = ThreadLocal.withInitial(java.util.HashMap::new);

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
        java.util.Map<String, Mac> own = macs.get();
        Mac mac = own.get(peer);
        if (mac == null) {
            try {
                mac = Mac.getInstance(PartyKeystore.MAC_ALGORITHM);
                mac.init(key.get());
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HMAC-SHA256 with the key for " + peer + ": " + e.getMessage(), e);
            }
            own.put(peer, mac);
        }
        return Optional.of(mac.doFinal(input)); // doFinal leaves the Mac ready for the next message, same key
    }

    /** Whether {@code claimed} is the MAC of {@code input} under the key shared with {@code peer}; constant time. */
    boolean verify(String peer, byte[] input, byte[] claimed) {
        return mac(peer, input).map(expected -> MessageDigest.isEqual(expected, claimed)).orElse(false);
    }
}
