package org.bftws.channels.tcp;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.SecretKey;

/**
 * Opens a connection between two nodes (docs/wire.md, "The binary channel"). The node with the lower id dials:
 * <pre>
 * dialler  -> HELLO    "BFTWS-CH", version 1, dialler id, acceptor id, dialler incarnation, dialler nonce (16 bytes)
 * acceptor -> WELCOME  acceptor incarnation, acceptor nonce, last frame it delivered from the dialler, proof
 * dialler  -> CONFIRM  last frame it delivered from the acceptor, proof
 * </pre>
 * Each proof is an HMAC under the pair key over a role label, the group and every byte exchanged before it, so each
 * side proves the key on the other's fresh nonce: a recorded handshake or frame is worth nothing on a new connection.
 * The frame keys of the two directions are derived from the whole exchange. An incarnation is a random number a
 * node draws when its channel starts: a new one tells the peer that the node restarted and its streams start over.
 * Nothing the other side says changes any state before its proof is checked. Without keys (profile none) there are
 * no proofs and frames carry no MAC: the ids are taken on trust, as the SOAP channel takes them then.
 */
final class Handshake {
    static final byte[] MAGIC = "BFTWS-CH".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    static final int NONCE_BYTES = 16;
    static final int HELLO_BYTES = MAGIC.length + 1 + 4 + 4 + 8 + NONCE_BYTES;
    static final int WELCOME_BYTES = 8 + NONCE_BYTES + 8;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** What a handshake needs of the node running it. */
    interface Local {
        int self();

        long incarnation();

        /** Bound into every proof and key: the group, so a connection cannot be moved into another group. */
        byte[] context();

        ChannelKeys keys();

        /** Whether {@code id} may dial this node (a peer with a lower id). */
        boolean dialsHere(int id);

        /** The last frame delivered from {@code peer}'s stream if it is still incarnation {@code incarnation}, else 0. */
        long deliveredFrom(int peer, long incarnation);

        /** Whether the connection runs over TLS: then frames carry no HMAC of their own (TLS protects each record). */
        default boolean tls() {
            return false;
        }
    }

    /**
     * The agreed connection: the peer, its incarnation, the last frame of this node's stream it says it delivered,
     * what this node told it of the peer's stream, and the MACs of both directions.
     */
    record Session(int peer, long peerIncarnation, long peerDelivered, long deliveredTold, FrameMac out, FrameMac in) {
    }

    private Handshake() {
    }

    static long newIncarnation() {
        long i;
        do {
            i = RANDOM.nextLong();
        } while (i == 0);
        return i;
    }

    /** The dialler's side, to {@code peer}. */
    static Session dial(DataInputStream in, OutputStream out, int peer, Local local) throws IOException,
            ChannelRefusal {
        SecretKey key = keyFor(local, peer);
        ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES);
        hello.put(MAGIC).put((byte) VERSION).putInt(local.self()).putInt(peer).putLong(local.incarnation())
                .put(nonce());
        out.write(hello.array());
        out.flush();
        // the acceptor hanging up here is a failed dial (it may be stopping, or refused this node), not a refusal
        byte[] welcome = readOrEof(in, WELCOME_BYTES, "WELCOME");
        byte[] acceptorProof = readOrEof(in, macLength(local), "WELCOME's proof");
        if (key != null && !MessageDigest.isEqual(acceptorProof, proof(key, "acceptor", local, hello.array(), welcome))) {
            throw new ChannelRefusal(Refusal.WRONG_KEY, "node " + peer + "'s proof does not hold under the pair key");
        }
        ByteBuffer w = ByteBuffer.wrap(welcome);
        long peerIncarnation = w.getLong();
        w.position(w.position() + NONCE_BYTES);
        long peerDelivered = w.getLong();
        if (peerIncarnation == 0 || peerDelivered < 0) {
            throw new ChannelRefusal(Refusal.MALFORMED_HANDSHAKE, "node " + peer + " sent incarnation 0 or a negative"
                    + " frame number");
        }
        long told = local.deliveredFrom(peer, peerIncarnation);
        byte[] confirm = ByteBuffer.allocate(8).putLong(told).array();
        byte[] ownProof = key == null ? new byte[0]
                : proof(key, "dialler", local, hello.array(), welcome, acceptorProof, confirm);
        out.write(confirm);
        out.write(ownProof);
        out.flush();
        byte[][] transcript = {hello.array(), welcome, acceptorProof, confirm, ownProof};
        return new Session(peer, peerIncarnation, peerDelivered, told,
                frameMac(key, "frames dialler to acceptor", local, transcript),
                frameMac(key, "frames acceptor to dialler", local, transcript));
    }

    /** The acceptor's side: who dialled is learnt from HELLO. */
    static Session accept(DataInputStream in, OutputStream out, Local local) throws IOException, ChannelRefusal {
        byte[] hello = read(in, HELLO_BYTES, "HELLO");
        if (!Arrays.equals(hello, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new ChannelRefusal(Refusal.MALFORMED_HANDSHAKE, "the connection does not open with BFTWS-CH");
        }
        ByteBuffer h = ByteBuffer.wrap(hello, MAGIC.length, HELLO_BYTES - MAGIC.length);
        int version = h.get() & 0xff;
        int dialler = h.getInt();
        int addressee = h.getInt();
        long diallerIncarnation = h.getLong();
        if (version != VERSION) {
            throw new ChannelRefusal(Refusal.MALFORMED_HANDSHAKE, "version " + version + ", this node speaks "
                    + VERSION);
        }
        if (addressee != local.self()) {
            throw new ChannelRefusal(Refusal.UNKNOWN_PEER, "node " + dialler + " addressed node " + addressee
                    + ", this is node " + local.self());
        }
        if (!local.dialsHere(dialler)) {
            throw new ChannelRefusal(Refusal.UNKNOWN_PEER, "node " + dialler + " may not dial node " + local.self()
                    + " (peers with lower ids dial; the others are dialled)");
        }
        if (diallerIncarnation == 0) {
            throw new ChannelRefusal(Refusal.MALFORMED_HANDSHAKE, "node " + dialler + " sent incarnation 0");
        }
        SecretKey key = keyFor(local, dialler);
        long told = local.deliveredFrom(dialler, diallerIncarnation);
        byte[] welcome = ByteBuffer.allocate(WELCOME_BYTES).putLong(local.incarnation()).put(nonce()).putLong(told)
                .array();
        byte[] ownProof = key == null ? new byte[0] : proof(key, "acceptor", local, hello, welcome);
        out.write(welcome);
        out.write(ownProof);
        out.flush();
        byte[] confirm = read(in, 8, "CONFIRM");
        byte[] diallerProof = read(in, macLength(local), "CONFIRM's proof");
        if (key != null && !MessageDigest.isEqual(diallerProof,
                proof(key, "dialler", local, hello, welcome, ownProof, confirm))) {
            throw new ChannelRefusal(Refusal.WRONG_KEY, "node " + dialler + "'s proof does not hold under the pair key");
        }
        long peerDelivered = ByteBuffer.wrap(confirm).getLong();
        if (peerDelivered < 0) {
            throw new ChannelRefusal(Refusal.MALFORMED_HANDSHAKE, "node " + dialler + " sent a negative frame number");
        }
        byte[][] transcript = {hello, welcome, ownProof, confirm, diallerProof};
        return new Session(dialler, diallerIncarnation, peerDelivered, told,
                frameMac(key, "frames acceptor to dialler", local, transcript),
                frameMac(key, "frames dialler to acceptor", local, transcript));
    }

    private static SecretKey keyFor(Local local, int peer) throws ChannelRefusal {
        if (!local.keys().authenticated()) {
            return null;
        }
        SecretKey key = local.keys().with(peer);
        if (key == null) {
            throw new ChannelRefusal(Refusal.UNKNOWN_PEER, "no pair key shared with node " + peer);
        }
        return key;
    }

    private static int macLength(Local local) {
        return local.keys().authenticated() ? FrameMac.LENGTH : 0;
    }

    private static byte[] nonce() {
        byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    private static byte[] readOrEof(DataInputStream in, int bytes, String what) throws IOException, ChannelRefusal {
        byte[] b = new byte[bytes];
        try {
            in.readFully(b);
        } catch (SocketTimeoutException e) {
            throw new ChannelRefusal(Refusal.HANDSHAKE_TIMEOUT, "no complete " + what + " in time");
        }
        return b;
    }

    private static byte[] read(DataInputStream in, int bytes, String what) throws IOException, ChannelRefusal {
        byte[] b = new byte[bytes];
        try {
            in.readFully(b);
        } catch (EOFException e) {
            throw new ChannelRefusal(Refusal.MALFORMED_HANDSHAKE, "the connection closed inside " + what);
        } catch (SocketTimeoutException e) {
            throw new ChannelRefusal(Refusal.HANDSHAKE_TIMEOUT, "no complete " + what + " in time");
        }
        return b;
    }

    /** HMAC under the pair key of: the label, the group, then each part, every one length-prefixed. */
    private static byte[] proof(SecretKey key, String label, Local local, byte[]... parts) {
        try {
            Mac mac = Mac.getInstance(FrameMac.ALGORITHM);
            mac.init(key);
            update(mac, ("bftws-channel/" + VERSION + " " + label).getBytes(StandardCharsets.UTF_8));
            update(mac, local.context());
            for (byte[] p : parts) {
                update(mac, p);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 with a pair key: " + e.getMessage(), e);
        }
    }

    private static void update(Mac mac, byte[] part) {
        mac.update(ByteBuffer.allocate(4).putInt(part.length).array());
        mac.update(part);
    }

    private static FrameMac frameMac(SecretKey key, String label, Local local, byte[][] transcript) {
        return key == null || local.tls() ? FrameMac.none() : FrameMac.keyed(proof(key, label, local, transcript));
    }
}
