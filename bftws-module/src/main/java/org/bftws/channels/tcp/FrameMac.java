package org.bftws.channels.tcp;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The MAC of one direction of one connection: HMAC-SHA256 under the key the handshake derived for that direction,
 * over the frame's position on the connection (never sent: both ends count), its header and its payload. The count
 * makes a replayed, dropped or reordered frame fail; the per-connection key makes a frame of an earlier connection
 * fail. Without keys (profile none) frames carry no MAC. Used by one thread: the connection's writer or its reader.
 */
final class FrameMac {
    static final String ALGORITHM = "HmacSHA256";
    static final int LENGTH = 32;

    private final Mac mac;
    private final byte[] counter = new byte[8];

    private FrameMac(Mac mac) {
        this.mac = mac;
    }

    static FrameMac none() {
        return new FrameMac(null);
    }

    static FrameMac keyed(byte[] key) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            return new FrameMac(mac);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every Java 17 runtime", e);
        }
    }

    /** Bytes of the MAC on the wire: 32, or 0 without keys. */
    int length() {
        return mac == null ? 0 : LENGTH;
    }

    byte[] of(long position, byte[] header, byte[] payload) {
        if (mac == null) {
            return new byte[0];
        }
        for (int i = 0; i < 8; i++) {
            counter[i] = (byte) (position >>> (56 - 8 * i));
        }
        mac.update(counter);
        mac.update(header);
        if (payload != null) {
            mac.update(payload);
        }
        return mac.doFinal();
    }

    /** Whether {@code claimed} is the MAC of the frame at {@code position}; constant time. */
    boolean matches(long position, byte[] header, byte[] payload, byte[] claimed) {
        return mac == null || MessageDigest.isEqual(of(position, header, payload), claimed);
    }
}
