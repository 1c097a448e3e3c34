package org.bftws.axis2.handlers;

import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.rm.RmFault;
import org.bftws.axis2.tier.NestedAdmission;
import org.apache.axis2.context.MessageContext;
import org.bftws.tier.NestedSequences;
import org.bftws.config.GroupConfig;
import org.bftws.rm.SequenceIds;
import org.bftws.security.AuthenticatedParty;

/**
 * Which party a sequence belongs to, and the check that a message on it comes from that party (the WS-RM 1.1
 * sequence-to-security binding; PBFT's binding of a request to its client's signature). The owner is named in the
 * identifier itself ({@link SequenceIds}), so the check needs no table: a replica that adopted a sequence before its
 * CreateSequence, or one that checks a request another replica relayed, decides like the others. Without security
 * there is no authenticated party and nothing to check.
 */
final class SequenceOwnership {

    private SequenceOwnership() {
    }

    /** The authenticated sender of {@code mc}, or null when the message was not authenticated (no security). */
    static String sender(MessageContext mc) {
        return mc.getProperty(AuthenticatedParty.PROPERTY) instanceof AuthenticatedParty p ? p.name() : null;
    }

    /**
     * The owner a CreateSequence from {@code mc} gives its sequence: the caller group when a replica of a group that
     * may call this one creates the group's virtual sequence (paper 3.4), else the sender ("" without security).
     */
    static String ownerOfNew(MessageContext mc, String clientUuid, BftwsNode node) {
        String sender = sender(mc);
        NestedAdmission nested = node.nested();
        if (sender != null && clientUuid != null && nested != null) {
            GroupConfig caller = nested.callerGroupOf(sender);
            if (caller != null && NestedSequences.callerUuid(caller).equalsIgnoreCase(clientUuid.trim())) {
                return NestedSequences.owner(caller);
            }
        }
        return sender == null ? "" : sender;
    }

    /**
     * Refuses {@code mc} when its authenticated sender is not the party that created sequence {@code sequenceId}.
     * Virtual sequences are left to the nested-request gate, which knows the caller group's replicas.
     */
    static void check(MessageContext mc, String sequenceId, BftwsNode node) throws RmFault {
        String sender = sender(mc);
        if (sender == null || SequenceIds.ownedBy(sequenceId, sender)) {
            return;
        }
        NestedAdmission nested = node.nested();
        if (nested != null && nested.isVirtualSequence(sequenceId)) {
            return;
        }
        node.counters().notSequenceOwner.incrementAndGet(); // the caller's catch counts it as refused too
        throw RmFault.invalidMessage("sequence " + sequenceId + " was not created by " + sender + ": a party sends "
                + "only on the sequences it created itself (send CreateSequence first)");
    }
}
