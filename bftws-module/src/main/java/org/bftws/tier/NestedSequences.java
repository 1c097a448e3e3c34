package org.bftws.tier;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import org.bftws.config.GroupConfig;
import org.bftws.rm.SequenceIds;

/**
 * Names of a virtual sequence between two groups (paper 3.4): every replica of a calling group derives the same
 * client UUID from the group's identity, hence (through {@link SequenceIds#derive}) the same sequence identifier at
 * the callee, and the same {@code wsa:MessageID} for message k of that sequence. Nothing here depends on a clock, a
 * random number or a process; a caller replica that restarts derives the same names.
 *
 * <pre>
 *   clientUuid = UUID.nameUUIDFromBytes(UTF-8("bftws-nested-v1\n" + callerGroupEndpoint))
 *   owner      = "group " + callerGroupEndpoint
 *   sequenceId = SequenceIds.derive(clientUuid, calleeGroupEndpoint, owner)
 *   messageId  = "urn:uuid:" + UUID.nameUUIDFromBytes(UTF-8("bftws-nested-message-v1\n" + sequenceId + "\n" + k))
 * </pre>
 */
public final class NestedSequences {

    private NestedSequences() {
    }

    /** The client UUID every replica of {@code caller} puts in CreateSequence. */
    public static String callerUuid(GroupConfig caller) {
        return UUID.nameUUIDFromBytes(("bftws-nested-v1\n" + caller.endpoint()).getBytes(StandardCharsets.UTF_8))
                .toString();
    }

    /**
     * The owner a virtual sequence's identifier names: the caller group, not the replica whose CreateSequence came
     * first (each caller replica signs its own), so every callee replica derives the same identifier.
     */
    public static String owner(GroupConfig caller) {
        return "group " + caller.endpoint();
    }

    /** The identifier of the virtual sequence from {@code caller}'s replicas to the group at {@code callee}. */
    public static String sequenceId(GroupConfig caller, URI callee) {
        return SequenceIds.derive(callerUuid(caller), callee, owner(caller));
    }

    /** The wsa:MessageID of message {@code n} of nested sequence {@code sequenceId}, the same on every caller. */
    public static String messageId(String sequenceId, long n) {
        return "urn:uuid:" + UUID.nameUUIDFromBytes(("bftws-nested-message-v1\n" + sequenceId + "\n" + n)
                .getBytes(StandardCharsets.UTF_8));
    }
}
