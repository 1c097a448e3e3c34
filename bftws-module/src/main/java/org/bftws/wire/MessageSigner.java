package org.bftws.wire;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.bftws.core.Message;
import org.bftws.security.PartyKeystore;

/**
 * Signs this node's transferable messages once, with the RSA key of its PKCS#12 keystore, over
 * {@link SigningInput} (SHA256withRSA, PKCS#1 v1.5). RSA because a PBFT message is signed once and checked by up to
 * n-1 nodes, and RSA verification is the cheapest of the JDK's signatures (measured in docs/wire.md); PKCS#1 v1.5
 * because it is deterministic: one message value has one signature, wherever and however often it is embedded.
 * Thread-safe.
 */
public final class MessageSigner {
    public static final String ALGORITHM = "SHA256withRSA";

    private final PrivateKey key;
    private final int self;
    private final String group;
    private final ThreadLocal<Signature> signatures;
    /** Own parts being signed right now, by the thread that took them: other threads wait instead of signing too. */
    private final ConcurrentHashMap<Message, FutureTask<byte[]>> signing = new ConcurrentHashMap<>();

    public MessageSigner(PrivateKey key, int self, String group) {
        this.key = key;
        this.self = self;
        this.group = group;
        this.signatures = ThreadLocal.withInitial(() -> {
            try {
                Signature s = Signature.getInstance(ALGORITHM);
                s.initSign(key);
                return s;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("this node's key cannot sign " + ALGORITHM + ": " + e.getMessage(), e);
            }
        });
        signatures.get(); // fail at start-up, not on the first message, when the key is unusable
    }

    /** The signer for node {@code keys.name()} of the group {@code directory} describes. */
    public static MessageSigner forNode(PartyKeystore keys, NodeDirectory directory) {
        int id = directory.id(keys.name()).orElseThrow(() -> new IllegalArgumentException(
                keys.name() + " is not a node of group " + directory.group()));
        return new MessageSigner(keys.privateKey(), id, directory.group());
    }

    public int self() {
        return self;
    }

    /** The signature over {@code m}, which must be a transferable message of this node. */
    public byte[] sign(Message m) {
        if (!m.transferable() || m.sender() != self) {
            throw new IllegalArgumentException("node " + self + " signs only its own transferable messages, not " + m);
        }
        Signature s = signatures.get();
        try {
            s.update(SigningInput.of(group, m));
            return s.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("signing failed: " + e.getMessage(), e);
        }
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
