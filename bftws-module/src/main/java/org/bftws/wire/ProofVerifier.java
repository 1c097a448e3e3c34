package org.bftws.wire;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bftws.core.Digest;
import org.bftws.core.Message;
import org.bftws.core.Request;
import org.bftws.rm.SequenceIds;
import org.bftws.security.DeploymentTrust;
import org.bftws.security.RefusalReason;
import org.bftws.security.RelayedRequestVerifier;
import org.bftws.security.SecurityRefusal;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Decides whether a received PBFT message may reach the core, as far as signatures go (the core checks the protocol
 * rules). The rule, {@link #verifyProofs}: a message that is not transferable must come from its own sender over the
 * authenticated channel; every transferable message, the message itself and everything embedded in it, recursively
 * (a new-view's view-changes' certificates' prepares...), must carry a valid signature of its claimed sender; every
 * client request it relays must carry its client's valid WS-Security signature naming that request. Verified
 * signatures go into the {@link SignatureCache}, and a value found there is not checked again. Thread-safe.
 *
 * <p>A transferable message that arrives directly from its sender is checked too, not only when it is embedded
 * later: otherwise a faulty node could send a correct replica a MAC-authenticated prepare with a worthless signature,
 * the replica would put it in its prepared certificate, and its view-change would then be refused everywhere; f such
 * nodes could block every view change. The check costs one Ed25519 verification (about 0.05 ms, docs/wire.md),
 * once per message value.
 *
 * <p>Each node's proofs verify only with the proof key the truststore registers for that node name
 * ({@link DeploymentTrust#proofKey}), so a node cannot sign in another's name with its own key.
 */
public final class ProofVerifier {
    private static final int VERIFIED_REQUESTS_KEPT = 4096;

    private final NodeDirectory nodes;
    /** The proof key of each node, by core id. Immutable; BouncyCastle's verify keeps no state: shared by threads. */
    private final List<Ed25519PublicKeyParameters> keys;
    private final SignatureCache cache;
    private final RelayedRequestVerifier requests;
    private final SequenceUse use;
    private final Set<Digest> verifiedRequests = Collections.newSetFromMap(new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Digest, Boolean> eldest) {
            return size() > VERIFIED_REQUESTS_KEPT;
        }
    });

    /**
     * @param trust    the deployment truststore: the proof key registered for each node name
     * @param requests checks the clients' signatures on relayed requests
     */
    public ProofVerifier(NodeDirectory nodes, DeploymentTrust trust, SignatureCache cache,
                         RelayedRequestVerifier requests) {
        this(nodes, trust, cache, requests, SequenceIds::ownedBy);
    }

    /**
     * @param use whether a party may send on a sequence: its creator ({@link SequenceIds#ownedBy}), and for a caller
     *            group's virtual sequence any replica of that group (paper 3.4)
     */
    public ProofVerifier(NodeDirectory nodes, DeploymentTrust trust, SignatureCache cache,
                         RelayedRequestVerifier requests, SequenceUse use) {
        this.use = use;
        this.nodes = nodes;
        this.cache = cache;
        this.requests = requests;
        this.keys = proofKeys(nodes, trust);
    }

    /**
     * The proof key the truststore registers for each node, by core id; IllegalStateException, saying to run keygen,
     * when one is missing (a truststore written before proof keys existed).
     */
    public static List<Ed25519PublicKeyParameters> proofKeys(NodeDirectory nodes, DeploymentTrust trust) {
        List<Ed25519PublicKeyParameters> found = new ArrayList<>();
        for (int id = 0; id < nodes.size(); id++) {
            String name = nodes.name(id);
            found.add(trust.proofKey(name).orElseThrow(() -> new IllegalStateException("the truststore has no"
                    + " Ed25519 proof key for node " + name + " of group " + nodes.group()
                    + "; run ./bftws keygen to add it (it keeps every existing key)")));
        }
        return List.copyOf(found);
    }

    /**
     * Refuses {@code received}, which arrived over the channel authenticated as core node {@code transportSender},
     * unless every signature it needs is present and valid (see the class comment). On success the signatures it
     * checked are in the cache, ready to be embedded by this node later.
     */
    public void verifyProofs(WireMessage received, int transportSender) throws ProofRefusal {
        Message m = received.message();
        if (!nodes.isNode(transportSender)) {
            throw new ProofRefusal(RefusalReason.UNKNOWN_PEER, "transport sender " + transportSender
                    + " is not a node of group " + nodes.group());
        }
        if (!m.transferable() && m.sender() != transportSender) {
            throw new ProofRefusal(RefusalReason.NOT_FROM_SENDER, m + " claims " + nodes.describe(m.sender())
                    + " as sender but came from " + nodes.describe(transportSender));
        }
        Map<Message, byte[]> checked = new LinkedHashMap<>();
        for (Message part : Proofs.signedParts(m)) {
            if (checked.containsKey(part) || cache.contains(part)) {
                continue;
            }
            String where = part == m ? part.toString() : part + " inside " + m;
            if (!nodes.isNode(part.sender())) {
                throw new ProofRefusal(RefusalReason.UNKNOWN_PEER, where + ": " + nodes.describe(part.sender())
                        + " is not a node of group " + nodes.group());
            }
            byte[] sig = received.signatureOf(part).orElseThrow(() -> new ProofRefusal(RefusalReason.UNSIGNED_PROOF,
                    where + " carries no signature"));
            if (!valid(part, sig)) {
                throw new ProofRefusal(RefusalReason.FORGED_PROOF, where + " is not signed by "
                        + nodes.describe(part.sender()) + " (arrived from " + nodes.describe(transportSender) + ")");
            }
            checked.put(part, sig);
        }
        for (Request r : Proofs.relayedRequests(m)) {
            verifyRequest(r, m);
        }
        checked.forEach(cache::put);
    }

    /** Whether {@code signature} is node {@code m.sender()}'s signature over {@code m}. */
    public boolean valid(Message m, byte[] signature) {
        if (!nodes.isNode(m.sender()) || signature.length != MessageSigner.SIGNATURE_BYTES) {
            return false; // a signature of the wrong length is simply not valid
        }
        byte[] input = SigningInput.of(nodes.group(), m);
        return keys.get(m.sender()).verify(Ed25519.Algorithm.Ed25519, null, input, 0, input.length, signature, 0);
    }

    private void verifyRequest(Request r, Message carrier) throws ProofRefusal {
        synchronized (verifiedRequests) {
            if (verifiedRequests.contains(r.digest())) {
                return;
            }
        }
        String where = "request " + r.id() + " relayed in " + carrier;
        RelayedRequestVerifier.SignedRequest signed;
        try {
            signed = requests.verify(r.payload()).orElse(null);
        } catch (SecurityRefusal e) {
            throw new ProofRefusal(e.reason(), where + ": " + e.getMessage(), e);
        }
        if (signed == null) {
            return; // a MAC-authenticated request: the receiving adapter checks its own entry (it may only be a body)
        }
        if (!signed.sequenceId().equals(r.id().client()) || signed.messageNumber() != r.id().number()) {
            throw new ProofRefusal(RefusalReason.FORGED_PROOF, where + ": its client signed message "
                    + signed.messageNumber() + " of sequence " + signed.sequenceId() + ", not this request id");
        }
        if (!use.mayUse(signed.sequenceId(), signed.signer().name())) {
            // a faulty primary must not get another party's request on a client's sequence ordered
            throw new ProofRefusal(RefusalReason.FORGED_PROOF, where + ": signed by " + signed.signer().name()
                    + ", who did not create sequence " + signed.sequenceId());
        }
        synchronized (verifiedRequests) {
            verifiedRequests.add(r.digest());
        }
    }

    /** Whether {@code party} may send requests on {@code sequenceId}. */
    @FunctionalInterface
    public interface SequenceUse {
        boolean mayUse(String sequenceId, String party);
    }
}
