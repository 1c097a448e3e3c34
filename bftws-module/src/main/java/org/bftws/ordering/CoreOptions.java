package org.bftws.ordering;

import java.time.Duration;

import org.bftws.config.GroupConfig;
import org.bftws.config.NodeConfig;
import org.bftws.config.NodeRole;
import org.bftws.config.ProtocolConfig;
import org.bftws.core.Membership;
import org.bftws.core.ReplicaOptions;
import org.bftws.core.Role;
import org.bftws.wire.NodeDirectory;

/** Translates a group of replicas.xml into the core's membership and tick-based options. */
public final class CoreOptions {

    /** One core tick: the resolution of every PBFT timer. */
    public static final Duration TICK = Duration.ofMillis(1);
    /** How often nodes exchange status (what lets them resend what a stuck peer lacks). */
    static final Duration STATUS_PERIOD = Duration.ofMillis(250);

    private CoreOptions() {
    }

    /** The core's membership, in the node numbering of {@code directory} (agreement nodes first). */
    public static Membership membership(GroupConfig group, NodeDirectory directory) {
        java.util.List<Role> roles = new java.util.ArrayList<>();
        for (int id = 0; id < directory.size(); id++) {
            roles.add(role(group.node(directory.name(id))));
        }
        return new Membership(group.f(), roles);
    }

    private static Role role(NodeConfig n) {
        return n.role() == NodeRole.AGREE_EXECUTE ? Role.AGREE_EXECUTE : n.role() == NodeRole.AGREE ? Role.AGREE : Role.EXECUTE;
    }

    public static ReplicaOptions options(ProtocolConfig p) {
        int k = p.checkpointInterval();
        int window = Math.max(p.watermarkWindow() / k, 2) * k;
        int viewChange = ticks(p.viewChangeTimeout());
        return new ReplicaOptions(k, window, p.batchMaxSize(), ticks(p.batchMaxDelay()), p.maxBatchesInFlight(),
                Math.max(viewChange, 1), Math.max(ticks(STATUS_PERIOD), 1),
                Math.max(ticks(p.retransmissionInterval()), 1), 256, ticks(p.batchWaitForClients()),
                p.sequenceIdleLimit().toMillis(), p.clockSkewBound().toMillis(), p.tentativeExecution());
    }

    static int ticks(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toNanos() / TICK.toNanos());
    }
}
