package org.bftws.channels.tcp;

import java.util.Map;
import java.util.TreeMap;
import javax.crypto.SecretKey;

/**
 * The HMAC-SHA256 pair keys this node shares with its peers (keygen's {@code hmac:PEER} entries, by core node id),
 * or none at all: with the {@code none} security profile the handshake proves nothing and frames carry no MAC, as
 * SOAP messages carry no authenticator then. A keyed channel refuses a peer it has no key for.
 */
public final class ChannelKeys {
    private final boolean authenticated;
    private final Map<Integer, SecretKey> keys;

    private ChannelKeys(boolean authenticated, Map<Integer, SecretKey> keys) {
        this.authenticated = authenticated;
        this.keys = keys;
    }

    /** No authentication (profile none). */
    public static ChannelKeys none() {
        return new ChannelKeys(false, Map.of());
    }

    /** The pair key shared with each peer, by core node id. */
    public static ChannelKeys of(Map<Integer, SecretKey> pairKeys) {
        return new ChannelKeys(true, new TreeMap<>(pairKeys));
    }

    public boolean authenticated() {
        return authenticated;
    }

    /** The key shared with {@code peer}, or null (then a keyed channel refuses it). */
    SecretKey with(int peer) {
        return keys.get(peer);
    }
}
