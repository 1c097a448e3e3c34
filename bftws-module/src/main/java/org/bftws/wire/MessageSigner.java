package org.bftws.wire;

import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.bftws.core.Message;
import org.bftws.security.PartyKeystore;
import org.bftws.security.ProofKeys;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Signs this node's transferable messages once, with its Ed25519 proof key ({@link ProofKeys}), over
 * {@link SigningInput}. Ed25519 because it is cheap to sign as well as to verify (about 22 us and 50 us here with
 * BouncyCastle's lightweight implementation, against 700 us to sign with RSA-2048), and a node signs one message per
 * batch on the normal-case path (its prepare, or its pre-prepare as primary); and because it is deterministic (RFC
 * 8032): one message value has one signature, wherever and however often it is embedded. Thread-safe: BouncyCastle's
 * key object keeps no state between signatures (only its public key, derived once under its own lock), so every
 * sender thread shares it; there is no provider lookup or per-thread signature object.
 */
public final class MessageSigner {
    public static final String ALGORITHM = ProofKeys.ALGORITHM;
    public static final int SIGNATURE_BYTES = ProofKeys.SIGNATURE_BYTES;

    private final Ed25519PrivateKeyParameters key;
    private final int self;
    private final String group;
    /** Own parts being signed right now, by the thread that took them: other threads wait instead of signing too. */
    private final ConcurrentHashMap<Message, FutureTask<byte[]>> signing = new ConcurrentHashMap<>();

    /** @param key this node's Ed25519 proof key (IllegalArgumentException for any other key) */
    public MessageSigner(PrivateKey key, int self, String group) {
        this.key = ProofKeys.signingKey(key);
        this.key.generatePublicKey(); // derived once and kept by the key (signing needs it), not on the first message
        this.self = self;
        this.group = group;
    }

    /**
     * The signer for node {@code keys.name()} of the group {@code directory} describes; IllegalStateException, saying
     * to run keygen, when its keystore holds no proof key.
     */
    public static MessageSigner forNode(PartyKeystore keys, NodeDirectory directory) {
        int id = directory.id(keys.name()).orElseThrow(() -> new IllegalArgumentException(
                keys.name() + " is not a node of group " + directory.group()));
        PrivateKey proofKey = keys.proofKey().orElseThrow(() -> new IllegalStateException("the keystore of "
                + keys.name() + " holds no Ed25519 proof key (PBFT proofs are signed with it, not with RSA, since this"
                + " version); run ./bftws keygen to add it (it keeps every existing key)"));
        return new MessageSigner(proofKey, id, directory.group());
    }

    public int self() {
        return self;
    }

    /** The signature over {@code m}, which must be a transferable message of this node. */
    public byte[] sign(Message m) {
        if (!m.transferable() || m.sender() != self) {
            throw new IllegalArgumentException("node " + self + " signs only its own transferable messages, not " + m);
        }
        byte[] input = SigningInput.of(group, m);
        byte[] signature = new byte[SIGNATURE_BYTES];
        key.sign(Ed25519.Algorithm.Ed25519, null, input, 0, input.length, signature, 0);
        return signature;
    }

    /**
     * Makes sure every part of outgoing {@code m} that is this node's own and transferable (the message itself, the
     * re-proposed pre-prepares of a new-view) has its signature in {@code cache}, signing what is not there yet.
     * Returns how many signatures this call made. Parts from other nodes must already be in the cache (they were
     * verified on arrival); the encoder refuses to send without them.
     *
     * <p>Each peer's sender thread calls this for the same broadcast message at about the same time. A part another
     * thread is signing is not signed again: this thread signs the parts nobody has taken yet and then waits for the
     * others. Without that, every thread found the cache empty and signed everything itself: a new view's prepares
     * and re-proposals were signed once per peer (three times with f = 1), on a machine where CPU is the bottleneck.
     */
    public int signOwnParts(Message m, SignatureCache cache) {
        int made = 0;
        List<FutureTask<byte[]>> others = new ArrayList<>(); // parts other threads are signing
        for (Message part : Proofs.signedParts(m)) {
            if (part.sender() != self || cache.contains(part)) {
                continue;
            }
            // The task caches its signature before it completes: a thread waiting for it then finds it there.
            FutureTask<byte[]> mine = new FutureTask<>(() -> {
                byte[] signature = sign(part);
                cache.put(part, signature);
                return signature;
            });
            FutureTask<byte[]> taken = signing.putIfAbsent(part, mine);
            if (taken != null) {
                others.add(taken);
                continue;
            }
            try {
                if (!cache.contains(part)) { // signed and cached by another thread since the first look
                    mine.run();
                    result(mine); // rethrows a signing failure
                    made++;
                }
            } finally {
                mine.cancel(false); // wakes waiters if it never ran
                signing.remove(part, mine);
            }
        }
        for (FutureTask<byte[]> t : others) {
            try {
                result(t);
            } catch (IllegalStateException notSigned) { // a CancellationException too: it was in the cache already
                // or signing failed in the other thread, which reports it; the encoder says what is missing
            }
        }
        return made;
    }

    private static byte[] result(FutureTask<byte[]> task) {
        try {
            return task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signing", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException r ? r : new IllegalStateException("signing failed", cause);
        }
    }
}
