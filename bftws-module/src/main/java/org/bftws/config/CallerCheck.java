package org.bftws.config;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks each {@code <caller group="..."/>} (multi-tier, paper 3.4): it must name another BFT group of the file, of
 * Configuration I (the only kind whose replicas make nested calls so far), without tentative execution (a nested call
 * cannot be undone), once per callee.
 */
final class CallerCheck {
    private CallerCheck() {
    }

    static void check(List<GroupConfig> groups, Map<GroupConfig, XmlElement> origins, ConfigProblems problems) {
        for (GroupConfig callee : groups) {
            Set<String> seen = new HashSet<>();
            XmlElement g = origins.get(callee);
            if (!g.children("caller").isEmpty() && callee.security().profile() == SecurityProfile.NONE) {
                problems.add(g, "has callers but security profile none: the p+1 copies of a nested request are"
                        + " told apart by their caller replicas' signatures; use profile mac or wssec");
            }
            if (!g.children("caller").isEmpty() && callee.configuration() != Configuration.I) {
                problems.add(g, "has callers but Configuration " + callee.configuration() + "; only Configuration I"
                        + " groups accept nested requests so far");
            }
            for (XmlElement c : origins.get(callee).children("caller")) {
                String name = c.required("group");
                Optional<GroupConfig> caller = groups.stream().filter(other -> other.service().equals(name)).findFirst();
                if (!seen.add(name)) {
                    problems.add(c, "names caller group " + name + " twice");
                } else if (caller.isEmpty()) {
                    problems.add(c, "names caller group " + name + ", but no <group service=\"" + name
                            + "\"> is in this file; the callee learns the caller replicas' names and p from it");
                } else if (caller.get() == callee) {
                    problems.add(c, "names its own group as a caller; a group does not call itself");
                } else if (caller.get().wsrmOnly()) {
                    problems.add(c, "names caller group " + name + ", which is not a BFT group (bft=\"false\" or"
                            + " a single node); only replicated callers send the p+1 copies a nested request needs");
                } else if (caller.get().configuration() != Configuration.I) {
                    problems.add(c, "names caller group " + name + " of Configuration " + caller.get().configuration()
                            + "; only Configuration I groups can make nested calls so far");
                } else if (caller.get().protocol().tentativeExecution()) {
                    problems.add(c, "names caller group " + name + ", whose <protocol> sets tentativeExecution=\"true\";"
                            + " a nested call made by a tentative execution cannot be undone if a view change discards"
                            + " that execution: a group that makes nested calls runs without tentative execution");
                }
            }
        }
    }
}
