package org.bftws.wire;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.CommittedBatch;
import org.bftws.core.ForwardedRequests;
import org.bftws.core.Message;
import org.bftws.core.NewView;
import org.bftws.core.PreparedCertificate;
import org.bftws.core.Request;
import org.bftws.core.StateSnapshot;
import org.bftws.core.ViewChange;

/**
 * What in a message needs a signature or a client's signature: the transferable messages it is or contains, and the
 * client requests it relays. The order is fixed (pre-order, fields in declaration order): the MAC over a bundle covers
 * the signatures in this order.
 */
public final class Proofs {
    private Proofs() {
    }

    /** {@code m} itself when transferable, then every transferable message inside it, depth first. */
    public static List<Message> signedParts(Message m) {
        List<Message> out = new ArrayList<>();
        collect(m, out);
        return out;
    }

    /** Only what is embedded in {@code m}, not {@code m} itself. */
    public static List<Message> embedded(Message m) {
        List<Message> out = new ArrayList<>();
        for (Message inner : children(m)) {
            collect(inner, out);
        }
        return out;
    }

    private static void collect(Message m, List<Message> out) {
        if (m.transferable()) {
            out.add(m);
        }
        for (Message inner : children(m)) {
            collect(inner, out);
        }
    }

    private static List<Message> children(Message m) {
        List<Message> list = new ArrayList<>();
        if (m instanceof ViewChange vc) {
            list.addAll(vc.stableProof());
            for (PreparedCertificate c : vc.prepared()) {
                list.add(c.prePrepare());
                list.addAll(c.prepares());
            }
        } else if (m instanceof NewView nv) {
            list.addAll(nv.prePrepares()); // its view-changes travel on their own (ViewChangeRef)
        } else if (m instanceof StateSnapshot s) {
            list.addAll(s.proof());
        }
        return list;
    }

    /** Client requests that {@code m} relays: their clients' own WS-Security signatures vouch for them. */
    public static List<Request> relayedRequests(Message m) {
        if (m instanceof ForwardedRequests fw) {
            return fw.requests();
        }
        if (m instanceof CommittedBatch cb) {
            return cb.requests();
        }
        return List.of();
    }
}
