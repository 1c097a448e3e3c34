package org.bftws.bench.byzantine;

import java.nio.charset.StandardCharsets;

import org.bftws.channels.ReplicaChannel;
import org.bftws.core.Checkpoint;
import org.bftws.core.Destination;
import org.bftws.core.Digest;
import org.bftws.core.Message;
import org.bftws.core.StateSnapshot;

/**
 * {@code bad-checkpoint}: every checkpoint the replica sends names a made-up state digest, and a state it is asked
 * for (a lagging replica's state transfer) comes with its bytes corrupted but the genuine stable proof. The correct
 * replicas make the checkpoint stable without it and refuse each such vote (and such a state), counted as
 * {@code dropped inputs from node N}.
 */
final class BadCheckpoints extends LyingChannel {

    BadCheckpoints(ReplicaChannel real, int self) {
        super(real, self);
    }

    @Override
    void lie(Destination to, Message m) {
        if (m instanceof Checkpoint c && c.sender() == self) {
            real.send(to, new Checkpoint(c.seq(), Digest.of(("not the state at " + c.seq())
                    .getBytes(StandardCharsets.UTF_8)), self));
            lied();
        } else if (m instanceof StateSnapshot s && s.sender() == self) {
            byte[] state = s.stateCopy();
            if (state.length == 0) {
                state = new byte[] {1};
            } else {
                state[state.length / 2] ^= 0x5a;
            }
            real.send(to, StateSnapshot.handingOver(s.seq(), state, s.proof(), self));
            lied();
        } else {
            real.send(to, m);
        }
    }
}
