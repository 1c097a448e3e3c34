package org.bftws.channels;

import org.bftws.core.Destination;
import org.bftws.core.Membership;

/** Which peers a core {@link Destination} names. */
public final class PeerRouting {
    private PeerRouting() {
    }

    public static boolean wants(Destination to, int peer, Membership membership) {
        if (to instanceof Destination.Node n) {
            return n.id() == peer;
        }
        return to instanceof Destination.AllNodes
                || (to instanceof Destination.AgreementNodes && membership.isAgreementNode(peer))
                || (to instanceof Destination.ExecutionNodes && !membership.isAgreementNode(peer));
    }
}
