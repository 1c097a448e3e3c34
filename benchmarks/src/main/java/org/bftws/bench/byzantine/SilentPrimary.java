package org.bftws.bench.byzantine;

import org.bftws.channels.ReplicaChannel;
import org.bftws.core.Destination;
import org.bftws.core.Message;
import org.bftws.core.NewView;
import org.bftws.core.PrePrepare;

/**
 * {@code silent-primary}: the primary never sends its pre-prepares (nor a new-view): the requests it is given stay
 * unordered until the backups' timers change the view. Everything else it sends as a correct replica would, so as a
 * backup of the next view it helps again. The correct replicas count it in their {@code view changes started} and
 * {@code views installed}.
 */
final class SilentPrimary extends LyingChannel {

    SilentPrimary(ReplicaChannel real, int self) {
        super(real, self);
    }

    @Override
    void lie(Destination to, Message m) {
        if ((m instanceof PrePrepare || m instanceof NewView) && m.sender() == self) {
            lied();
            return;
        }
        real.send(to, m);
    }
}
