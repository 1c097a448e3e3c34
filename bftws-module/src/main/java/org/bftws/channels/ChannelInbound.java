package org.bftws.channels;

import java.util.List;
import org.bftws.wire.WireMessage;

/**
 * Where a channel hands what one peer sent in one frame or SOAP bundle: the replica checks each message's proofs
 * and gives the verified ones to the Total Order Manager in one hand-over.
 */
@FunctionalInterface
public interface ChannelInbound {

    /**
     * @param from     the node the channel authenticated (with profile none: the node it claims to be)
     * @param messages the decoded messages with the signatures that travelled with them, in order
     */
    void receive(int from, List<WireMessage> messages);
}
