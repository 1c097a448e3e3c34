package org.bftws.sim;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.bftws.core.CommittedBatch;
import org.bftws.core.Digest;
import org.bftws.core.ForwardedRequests;
import org.bftws.core.Message;
import org.bftws.core.NewView;
import org.bftws.core.PreparedCertificate;
import org.bftws.core.Request;
import org.bftws.core.StateSnapshot;
import org.bftws.core.ViewChange;

/**
 * The simulator's model of authentication, standing in for the adapters' signatures and MACs: a node can sign only
 * in its own name, so a transferable message counts only if its claimed sender emitted it (a replay of a genuine
 * message passes, as it would in reality); a non-transferable message must come straight from its sender; a
 * request must be one its client signed. Embedded proofs are checked the same way.
 */
final class Signatures {

    private final Set<Message> signed = new HashSet<>();
    private final Set<Digest> clientSigned = new HashSet<>();

    void clientSigns(Request r) {
        clientSigned.add(r.digest());
    }

    boolean clientSigned(Request r) {
        return clientSigned.contains(r.digest());
    }

    /** Node {@code signer} emits {@code m}: it signs everything in it that claims to be its own. */
    void emit(int signer, Message m) {
        if (m.transferable() && m.sender() == signer) {
            signed.add(m);
        }
        for (Message e : embedded(m)) {
            emit(signer, e);
        }
    }

    /**
     * Whether the adapter would accept {@code m} arriving from node {@code from}. {@code signedRelays}: relayed
     * requests must carry their client's signature (with MAC authenticators a relayed request that does not verify
     * here is not refused, it only counts as a body).
     */
    boolean accepts(Message m, int from, boolean signedRelays) {
        boolean authentic = m.transferable() ? signed.contains(m) : m.sender() == from;
        if (!authentic) {
            return false;
        }
        for (Message e : embedded(m)) {
            if (!signed.contains(e) || !acceptsEmbedded(e)) {
                return false;
            }
        }
        return !signedRelays || requests(m).stream().allMatch(this::clientSigned);
    }

    private boolean acceptsEmbedded(Message e) {
        for (Message inner : embedded(e)) {
            if (!signed.contains(inner) || !acceptsEmbedded(inner)) {
                return false;
            }
        }
        return true;
    }

    private static List<Message> embedded(Message m) {
        List<Message> list = new java.util.ArrayList<>();
        if (m instanceof ViewChange vc) {
            list.addAll(vc.stableProof());
            for (PreparedCertificate c : vc.prepared()) {
                list.add(c.prePrepare());
                list.addAll(c.prepares());
            }
        } else if (m instanceof NewView nv) {
            list.addAll(nv.prePrepares());
        } else if (m instanceof StateSnapshot s) {
            list.addAll(s.proof());
        }
        return list;
    }

    private static List<Request> requests(Message m) {
        if (m instanceof ForwardedRequests fw) {
            return fw.requests();
        }
        if (m instanceof CommittedBatch cb) {
            return cb.requests();
        }
        return List.of();
    }
}
