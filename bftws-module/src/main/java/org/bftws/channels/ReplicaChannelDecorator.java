package org.bftws.channels;

import org.bftws.core.Membership;

/**
 * A test tool's hold on one replica's outbound PBFT messages: given the replica's channel, it returns the channel the
 * Total Order Manager sends through, which may drop, alter, repeat or add messages before the real channel
 * authenticates them (so what it sends is validly authenticated: the lies of a Byzantine replica, paper 2). The
 * product never installs one; a test tool puts one in the node's Axis2 configuration as the parameter
 * {@value #PARAMETER} before the bftws module starts the replica, and the module takes it only for a node whose
 * {@code <node>} in replicas.xml says {@code byzantineAllowed="true"} (it refuses to start the replica otherwise), so
 * that a deployment cannot run one by accident.
 */
@FunctionalInterface
public interface ReplicaChannelDecorator {

    /** The AxisConfiguration parameter that holds the decorator. */
    String PARAMETER = "bftws.replicaChannelDecorator";

    /**
     * @param channel    the replica's real channel (start, stop and counters must reach it)
     * @param self       this replica's node id
     * @param membership the group (who is primary in which view)
     */
    ReplicaChannel decorate(ReplicaChannel channel, int self, Membership membership);
}
