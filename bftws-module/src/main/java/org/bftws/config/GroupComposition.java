package org.bftws.config;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The node counts each configuration needs (paper, section 3.3) and dense, unique ids per kind of node.
 * A group with {@code bft="false"} is held to the same counts, so that BFT can be switched on without a new file.
 */
final class GroupComposition {
    private final XmlElement group;
    private final int f;
    private final Configuration configuration;
    private final ConfigProblems problems;

    GroupComposition(XmlElement group, int f, Configuration configuration, ConfigProblems problems) {
        this.group = group;
        this.f = f;
        this.configuration = configuration;
        this.problems = problems;
    }

    void check(List<NodeConfig> nodes, Map<NodeConfig, XmlElement> origins) {
        long agreeExecute = nodes.stream().filter(n -> n.role() == NodeRole.AGREE_EXECUTE).count();
        long agreeOnly = nodes.stream().filter(n -> n.role() == NodeRole.AGREE).count();
        long executeOnly = nodes.stream().filter(n -> n.role() == NodeRole.EXECUTE).count();
        long agreement = agreeExecute + agreeOnly;
        int n = 3 * f + 1;
        String of = "; f=" + f + " needs ";
        if (agreement != n) {
            problems.add(group, "lists " + agreement + " agreement nodes" + of + "3f+1 = " + n);
        }
        switch (configuration) {
            case I -> {
                if (agreeOnly + executeOnly > 0) {
                    problems.add(group, "is Configuration I, where every node has role agree-execute, but it lists "
                            + agreeOnly + " agree and " + executeOnly + " execute nodes");
                }
            }
            case II -> {
                if (agreeExecute != 2L * f + 1 || agreeOnly != f || executeOnly != 0) {
                    problems.add(group, "is Configuration II and lists " + agreeExecute + " agree-execute, " + agreeOnly
                            + " agree and " + executeOnly + " execute nodes" + of + "2f+1 = " + (2 * f + 1)
                            + " agree-execute and f = " + f + " agree nodes");
                }
            }
            case III -> {
                if (agreeOnly != n || executeOnly != 2L * f + 1 || agreeExecute != 0) {
                    problems.add(group, "is Configuration III and lists " + agreeExecute + " agree-execute, " + agreeOnly
                            + " agree and " + executeOnly + " execute nodes" + of + "3f+1 = " + n
                            + " agree and 2f+1 = " + (2 * f + 1) + " execute nodes");
                }
            }
        }
        checkIds(nodes.stream().filter(x -> x.role().orders()).toList(), "agreement", origins);
        checkIds(nodes.stream().filter(x -> !x.role().orders()).toList(), "execution", origins);
    }

    /** Ids of one kind must be exactly 0..k-1: the core indexes replicas by id and picks the primary as view mod n. */
    private void checkIds(List<NodeConfig> kind, String label, Map<NodeConfig, XmlElement> origins) {
        Map<Integer, NodeConfig> seen = new HashMap<>();
        for (NodeConfig node : kind) {
            NodeConfig earlier = seen.putIfAbsent(node.id(), node);
            if (earlier != null) {
                problems.add(origins.get(node), "has id " + node.id() + ", which " + origins.get(earlier).describe()
                        + " on line " + origins.get(earlier).line() + " already has; " + label + " node ids are unique");
            }
        }
        TreeSet<Integer> missing = new TreeSet<>();
        for (int i = 0; i < kind.size(); i++) {
            if (!seen.containsKey(i)) {
                missing.add(i);
            }
        }
        for (NodeConfig node : kind) {
            if (node.id() < 0 || node.id() >= kind.size()) {
                problems.add(origins.get(node), "has id " + node.id() + "; the " + kind.size() + " " + label
                        + " nodes of this group must have ids 0.." + (kind.size() - 1));
            }
        }
        if (!missing.isEmpty()) {
            problems.add(group, "has no " + label + " node with id " + missing + "; its " + kind.size() + " " + label
                    + " nodes must have ids 0.." + (kind.size() - 1) + " without gaps");
        }
    }
}
