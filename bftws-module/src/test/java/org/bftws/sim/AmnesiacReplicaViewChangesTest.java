package org.bftws.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bftws.core.Membership;
import org.bftws.core.ReplicaOptions;
import org.junit.jupiter.api.Test;

/**
 * A replica restarted without its data directory (an amnesiac one) has forgotten the view-changes it sent before; the
 * others still hold them. These schedules come from the nemesis (`./bftws nemesis --seed 1`, 1290 s): a replica
 * restarted from disk twice (each restart announces the next view, alone), then killed and restarted empty; then the
 * primary was cut off. The others ignored the amnesiac's new view-changes (they held one for a higher view from it),
 * so the next primary never had 2f+1; the one after built its new-view on the forgotten view-change, which the
 * amnesiac could not check: two view changes failed before the third, with the amnesiac as primary, worked.
 */
class AmnesiacReplicaViewChangesTest {

    private static final ReplicaOptions OPTIONS = new ReplicaOptions(4, 8, 3, 1, 2, 60, 10, 15, 8, 0);
    private static final Pattern ENTERS = Pattern.compile("t=(\\d+) node (\\d+) enters view (\\d+)");

    @Test
    void aCutOffPrimaryCostsOneViewChangeAfterAReplicaRestartedWithoutItsMemory() {
        Simulation.Result r = run(List.of(new Scenario.Partition(320, 900, Set.of(0))),
                List.of(new Scenario.Crash(3, 60, 80, Scenario.Restart.DISK),
                        new Scenario.Crash(3, 120, 140, Scenario.Restart.DISK),
                        new Scenario.Crash(3, 200, 240, Scenario.Restart.EMPTY)));
        assertTrue(r.ok(), r.violations() + " " + r.stuck());
        Map<Integer, Integer> entered = viewsEnteredBetween(r, 320, 900);
        assertEquals(Map.of(1, 1, 2, 1, 3, 1), entered,
                "nodes 1-3 (the amnesiac among them) enter view 1 and need no other while node 0 is cut off");
    }

    @Test
    void aReplicaRestartedWithoutItsMemoryEntersAViewWhoseNewViewNamesItsForgottenViewChange() {
        // node 0 cut off: view 1's new-view names node 3's view-change; node 3 then loses its memory
        Simulation.Result r = run(List.of(new Scenario.Partition(30, 120, Set.of(0))),
                List.of(new Scenario.Crash(3, 150, 200, Scenario.Restart.EMPTY)));
        assertTrue(r.ok(), r.violations() + " " + r.stuck());
        assertEquals(Map.of(3, 1), viewsEnteredBetween(r, 200, 320),
                "the amnesiac takes its view-change back from a peer and enters the view the others are in");
    }

    private static Simulation.Result run(List<Scenario.Partition> partitions, List<Scenario.Crash> crashes) {
        Scenario s = new Scenario(1, "I", Membership.configurationI(1), OPTIONS, 3, 80, false, 0, 0, 2, 1000,
                partitions, crashes, Map.of(), true);
        return Simulation.run(s, true);
    }

    /** The highest view each node entered in [from, to), by node. */
    private static Map<Integer, Integer> viewsEnteredBetween(Simulation.Result r, long from, long to) {
        Map<Integer, Integer> views = new TreeMap<>();
        Matcher m = ENTERS.matcher(r.trace());
        while (m.find()) {
            long t = Long.parseLong(m.group(1));
            if (t >= from && t < to) {
                views.merge(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), Math::max);
            }
        }
        return views;
    }
}
