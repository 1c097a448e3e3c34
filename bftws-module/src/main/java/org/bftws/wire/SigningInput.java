package org.bftws.wire;

import org.bftws.core.Message;

/**
 * The bytes an embedded signature covers: a domain string (so a signature over PBFT bytes can never pass for a
 * signature in any other use of a key), the group's name (so it cannot be replayed into another group) and the
 * message's canonical form. The domain names the signature scheme's version: v1 was SHA256withRSA with the node's
 * WS-Security key, v2 is Ed25519 with its proof key, so no signature of one can ever be taken for the other.
 */
final class SigningInput {
    /** The signature scheme's version (2: Ed25519 proof keys); part of the domain string. */
    static final int SCHEME_VERSION = 3;
    static final String DOMAIN = WireNames.NS + "#signature/v" + SCHEME_VERSION;

    private SigningInput() {
    }

    static byte[] of(String group, Message m) {
        CanonicalWriter out = new CanonicalWriter(256);
        out.writeString(DOMAIN).writeString(group);
        CanonicalForm.write(m, out);
        return out.toByteArray();
    }
}
