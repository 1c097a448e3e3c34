package org.bftws.core;

import java.util.List;

/**
 * A {@link Claim} the sender signs, so that it counts wherever it is relayed. A node signs its claims only for
 * requests that wait longer than a fetch timeout without being ordered (the slow path: a faulty client, or a
 * primary that ignores them); f+1 of them for one request prove that a correct node authenticated it, which lets a
 * primary order it on that proof and lets a backup suspect a primary that, holding the proof, still does not
 * (docs/protocol.md, "Requests authenticated with MACs").
 */
public record SignedClaim(List<RequestRef> refs, int sender) implements Message {

    public SignedClaim {
        refs = List.copyOf(refs);
    }

    @Override
    public boolean transferable() {
        return true;
    }

    @Override
    public String toString() {
        return "SignedClaim(" + refs.size() + "req from " + sender + ")";
    }
}
