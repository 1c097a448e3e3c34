package org.bftws.bench.byzantine;

import org.bftws.channels.ReplicaChannel;
import org.bftws.core.Batch;
import org.bftws.core.Destination;
import org.bftws.core.Membership;
import org.bftws.core.Message;
import org.bftws.core.PrePrepare;

/**
 * {@code equivocate}: as primary, each pre-prepare goes as it is to one backup and, for the same view and sequence
 * number, to the others with the same requests but another time, so another batch digest (an empty batch would be
 * refused as malformed before it could mislead anyone). Neither batch can gather a commit quorum, and a backup that
 * sees both signed pre-prepares (relayed by a peer) holds proof of the equivocation: the backups change the view and
 * the new primary orders the requests again. The correct replicas count it in their {@code view changes started}
 * and {@code views installed}.
 */
final class Equivocation extends LyingChannel {

    private final Membership membership;

    Equivocation(ReplicaChannel real, int self, Membership membership) {
        super(real, self);
        this.membership = membership;
    }

    @Override
    void lie(Destination to, Message m) {
        if (!(m instanceof PrePrepare pp) || pp.sender() != self) {
            real.send(to, m);
            return;
        }
        int honest = (self + 1) % membership.agreementCount();
        PrePrepare other = new PrePrepare(pp.view(), pp.seq(), new Batch(pp.batch().requests(),
                pp.batch().time() + 1), self);
        for (int node = 0; node < membership.agreementCount(); node++) {
            boolean named = to instanceof Destination.Node n ? n.id() == node
                    : to instanceof Destination.AgreementNodes || to instanceof Destination.AllNodes;
            if (node != self && named) {
                real.send(new Destination.Node(node), node == honest ? pp : other);
            }
        }
        lied();
    }
}
