package org.bftws.channels.tcp;

/**
 * Why the binary channel refused a connection or dropped one after a bad frame. Each is counted per reason and
 * logged without a stack trace (the 1st, 2nd, 4th, 8th... time); the connection it happened on is closed, and
 * nothing else is touched: other peers' links go on, and the same peer may connect again.
 */
public enum Refusal {
    /** The opening bytes are not this protocol's handshake (another protocol, garbage, another version). */
    MALFORMED_HANDSHAKE("malformed handshake"),
    /** The other end claims to be no peer of this node, addresses another node, or dials the wrong way. */
    UNKNOWN_PEER("unknown peer"),
    /** The other end's handshake proof does not hold: it does not know the pair key. */
    WRONG_KEY("wrong key"),
    /** The handshake did not complete in time. */
    HANDSHAKE_TIMEOUT("handshake timeout"),
    /** A frame header that no correct peer writes (unknown type, an acknowledgement with a payload...). */
    MALFORMED_FRAME("malformed frame"),
    /** A frame longer than the bound: refused before its bytes are read. */
    OVERSIZED_FRAME("oversized frame"),
    /** A frame whose MAC does not hold under this connection's key: forged, altered, replayed or reordered. */
    MAC_MISMATCH("MAC mismatch"),
    /** A data frame whose number skips one: a frame in between was lost, which the stream never allows. */
    OUT_OF_ORDER("frame out of order"),
    /** An acknowledgement of frames this node never sent. */
    BAD_ACK("acknowledgement of unsent frames"),
    /** The TLS handshake failed: a certificate refused (another CA, expired, revoked) or no TLS spoken at all. */
    TLS_FAILED("TLS handshake failed"),
    /** The other end's certificate names another party than the node at that id in replicas.xml. */
    WRONG_CERTIFICATE("certificate of another party"),
    /** More connections in their handshake at once than a group has peers: the extra ones are closed at once. */
    TOO_MANY_HANDSHAKES("too many handshakes at once");

    private final String text;

    Refusal(String text) {
        this.text = text;
    }

    /** How counters and logs name it. */
    public String text() {
        return text;
    }
}
