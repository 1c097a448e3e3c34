package org.bftws.ordering;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.bftws.tier.NestedSequences;
import org.bftws.config.GroupConfig;
import org.bftws.config.NodeConfig;
import org.bftws.config.ReplicasConfig;
import org.bftws.rm.SequenceIds;
import org.bftws.wire.ProofVerifier;

/**
 * Who may send requests on a sequence, for requests another replica relays: the party that created it (named in its
 * identifier), and on a caller group's virtual sequence to this group (paper 3.4) any replica of that group.
 */
public final class SequenceUsers {

    private SequenceUsers() {
    }

    public static ProofVerifier.SequenceUse of(ReplicasConfig config, GroupConfig group) {
        Map<String, Set<String>> virtual = new HashMap<>();
        for (GroupConfig caller : config.callersOf(group)) {
            virtual.put(NestedSequences.sequenceId(caller, group.endpoint()), caller.executionNodes().stream()
                    .map(NodeConfig::name).map(n -> n.toLowerCase(Locale.ROOT)).collect(Collectors.toSet()));
        }
        return (sequenceId, party) -> SequenceIds.ownedBy(sequenceId, party)
                || virtual.getOrDefault(sequenceId, Set.of()).contains(party.toLowerCase(Locale.ROOT));
    }
}
