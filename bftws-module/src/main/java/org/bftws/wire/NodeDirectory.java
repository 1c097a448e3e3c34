package org.bftws.wire;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import org.bftws.config.GroupConfig;
import org.bftws.config.NodeConfig;

/**
 * Core node ids to replicas.xml node names and back. The core numbers a group's nodes densely with the agreement
 * nodes first (0..3f, the order of {@code core.Membership}) and Configuration III's execution nodes after them;
 * replicas.xml numbers agreement and execution nodes separately (both from 0). So agreement node {@code id=i} is
 * core node i, and execution node {@code id=j} is core node 3f+1+j.
 */
public final class NodeDirectory {
    private final String group;
    private final List<String> names;

    private NodeDirectory(String group, List<String> names) {
        this.group = group;
        this.names = List.copyOf(names);
    }

    public static NodeDirectory of(GroupConfig group) {
        List<String> names = new ArrayList<>();
        group.agreementNodes().stream().sorted(Comparator.comparingInt(NodeConfig::id)).map(NodeConfig::name)
                .forEach(names::add);
        group.nodes().stream().filter(n -> !n.role().orders()).sorted(Comparator.comparingInt(NodeConfig::id))
                .map(NodeConfig::name).forEach(names::add);
        return new NodeDirectory(group.service(), names);
    }

    /** The group's service name: signatures are bound to it, so they cannot be replayed into another group. */
    public String group() {
        return group;
    }

    public int size() {
        return names.size();
    }

    public boolean isNode(int id) {
        return id >= 0 && id < names.size();
    }

    /** The replicas.xml name of core node {@code id}; IllegalArgumentException for an id outside the group. */
    public String name(int id) {
        if (!isNode(id)) {
            throw new IllegalArgumentException("node " + id + " is not a node of group " + group + " (0.."
                    + (names.size() - 1) + ")");
        }
        return names.get(id);
    }

    /** The core id of the node named {@code name} (ignoring case, as the config does), if it is in this group. */
    public OptionalInt id(String name) {
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                return OptionalInt.of(i);
            }
        }
        return OptionalInt.empty();
    }

    /** "node 2 (replica2)", for logs and refusals. */
    public String describe(int id) {
        return isNode(id) ? "node " + id + " (" + names.get(id) + ")" : "node " + id;
    }
}
