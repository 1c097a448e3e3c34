package org.bftws.wire;

import org.bftws.core.Message;

/**
 * The bytes an embedded signature covers: a domain string (so a signature over PBFT bytes can never pass for a
 * signature in any other use of the node's key, e.g. a WS-Security one), the group's name (so it cannot be replayed
 * into another group) and the message's canonical form.
 */
final class SigningInput {
    static final String DOMAIN = WireNames.NS + "#signature/v" + CanonicalForm.VERSION;

    private SigningInput() {
    }

    static byte[] of(String group, Message m) {
        CanonicalWriter out = new CanonicalWriter(256);
        out.writeString(DOMAIN).writeString(group);
        CanonicalForm.write(m, out);
        return out.toByteArray();
    }
}
