package org.bftws.sim;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.bftws.core.Membership;
import org.bftws.core.ReplicaOptions;

/** Draws a random fault mix from a seed; the same seed always gives the same scenario. */
public final class ScenarioGenerator {

    private ScenarioGenerator() {
    }

    public static Scenario generate(long seed) {
        // Read-only requests in half of the schedules, from a stream of their own (every schedule is otherwise
        // drawn as it was before they existed).
        boolean reads = new Random(seed * 613 + 0x72656164L).nextBoolean();
        Scenario s = draw(seed);
        s = reads ? s.withReads(new Scenario.Reads(true, Scenario.ReadRule.CORRECT)) : s;
        // A slow service in a quarter of the schedules, from a stream of its own as well.
        Random slowness = new Random(seed * 151 + 0x736c6f77L);
        if (slowness.nextInt(4) == 0) {
            List<Integer> executors = s.membership().executors();
            s = s.withSlowService(new Scenario.SlowService(executors.get(slowness.nextInt(executors.size())),
                    1 + slowness.nextInt(30)));
        }
        // Tentative execution in half of the schedules where every executor orders (Configurations I and II), from a
        // stream of its own too.
        if (!s.membership().hasExecutionOnlyNodes() && new Random(seed * 389 + 0x74656e74L).nextBoolean()) {
            s = s.withOptions(s.options().withTentativeExecution(true));
        }
        return flooded(seed, s);
    }

    /**
     * A flooding client (issue 34) in a quarter of the schedules with MACs, from a stream of its own (every schedule
     * without one is drawn as before); in half of those nothing else misbehaves (no faulty or crashing node, no
     * partition, no loss, short delays), so any view change is one the flood forced.
     */
    private static Scenario flooded(long seed, Scenario s) {
        Random rnd = new Random(seed * 211 + 0x666c6f6fL);
        if (!s.macRequests() || rnd.nextInt(4) != 0) {
            return s;
        }
        int from = rnd.nextInt(Math.max(1, s.faultTicks() / 2));
        Scenario.Flood flood = new Scenario.Flood(from, Math.min(s.faultTicks(), from + 10 + rnd.nextInt(30)),
                2 + rnd.nextInt(7), 1 + rnd.nextInt(12));
        if (rnd.nextBoolean()) {
            Scenario.Expiry expiry = expiry(seed, s.membership(), new TreeMap<>(), true);
            ReplicaOptions options = s.options().withSequenceExpiry(expiry.idleLimit(), expiry.clockBound());
            if (!expiry.on()) {
                options = new ReplicaOptions(options.checkpointInterval(), options.watermarkWindow(),
                        options.batchMaxSize(), options.batchDelayTicks(), options.maxBatchesInFlight(),
                        options.viewChangeTimeout(), options.statusPeriod(), options.fetchTimeout(),
                        options.maxPendingPerClient(), options.clientWaitTicks(), 0, options.clockBound(),
                        options.tentativeExecution());
            }
            s = new Scenario(seed, s.configuration(), s.membership(), options, s.correctClients(),
                    s.requestsPerClient(), s.byzantineClient(), 0, 0, 1 + rnd.nextInt(3), s.faultTicks(), List.of(),
                    List.of(), Map.of(), true, s.ends(), expiry, s.reads(), Scenario.SlowService.NONE, flood);
            return s;
        }
        return s.withFlood(flood);
    }

    private static Scenario draw(long seed) {
        Random rnd = new Random(seed);
        int f = rnd.nextInt(10) == 0 ? 2 : 1;
        int kind = rnd.nextInt(10);
        String configuration = kind < 6 ? "I" : kind < 8 ? "II" : "III";
        Membership m = switch (configuration) {
            case "I" -> Membership.configurationI(f);
            case "II" -> Membership.configurationII(f);
            default -> Membership.configurationIII(f);
        };
        int k = 2 + rnd.nextInt(5);
        ReplicaOptions options = new ReplicaOptions(k, k * (2 + rnd.nextInt(3)), 1 + rnd.nextInt(6),
                rnd.nextInt(4), 1 + rnd.nextInt(3), 60 + rnd.nextInt(60), 8 + rnd.nextInt(8),
                10 + rnd.nextInt(15), 8, rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(40));
        int faultTicks = 200 + rnd.nextInt(1200);
        boolean calm = rnd.nextInt(8) == 0;
        double loss = calm ? 0 : rnd.nextDouble() * 0.25;
        double duplication = calm ? 0 : rnd.nextDouble() * 0.15;
        int maxDelay = 1 + rnd.nextInt(calm ? 3 : 12);

        Set<Integer> faulty = new HashSet<>();
        Map<Integer, Set<Behavior>> byzantine = new TreeMap<>();
        int byzantineCount = rnd.nextInt(f + 1);
        for (int i = 0; i < byzantineCount; i++) {
            int node = pickNode(rnd, m.size(), faulty);
            faulty.add(node);
            byzantine.put(node, behaviors(rnd));
        }
        // From a stream of its own, so that the draws below, and every earlier seed's schedule, stay as they were.
        Random nested = new Random(~seed);
        byzantine.values().forEach(b -> {
            if (nested.nextInt(3) == 0) {
                b.add(Behavior.SMUGGLE_NESTED);
            }
        });
        List<Scenario.Crash> crashes = new ArrayList<>();
        if (faulty.size() < f && rnd.nextInt(3) == 0) {
            int node = pickNode(rnd, m.size(), faulty);
            faulty.add(node);
            int at = rnd.nextInt(faultTicks);
            crashes.add(new Scenario.Crash(node, at, at + 20 + rnd.nextInt(300), Scenario.Restart.EMPTY));
        }
        int crashCount = rnd.nextInt(3);
        for (int i = 0; i < crashCount; i++) {
            int node = rnd.nextInt(m.size());
            if (faulty.contains(node)) {
                continue;
            }
            int at = rnd.nextInt(faultTicks);
            Scenario.Restart how = rnd.nextBoolean() ? Scenario.Restart.MEMORY : Scenario.Restart.DISK;
            crashes.add(new Scenario.Crash(node, at, Math.min(faultTicks, at + 10 + rnd.nextInt(400)), how));
        }
        if (rnd.nextInt(8) == 0) {
            // The whole group stops and starts again from its data directories (all at once).
            int at = rnd.nextInt(faultTicks);
            int back = Math.min(faultTicks, at + 10 + rnd.nextInt(200));
            for (int node = 0; node < m.size(); node++) {
                if (!faulty.contains(node)) {
                    crashes.add(new Scenario.Crash(node, at, back, Scenario.Restart.DISK));
                }
            }
        }
        List<Scenario.Partition> partitions = new ArrayList<>();
        int partitionCount = calm ? 0 : rnd.nextInt(3);
        for (int i = 0; i < partitionCount; i++) {
            Set<Integer> isolated = new HashSet<>();
            int size = 1 + rnd.nextInt(Math.max(1, m.size() / 2));
            while (isolated.size() < size) {
                isolated.add(rnd.nextInt(m.size()));
            }
            int from = rnd.nextInt(faultTicks);
            partitions.add(new Scenario.Partition(from, Math.min(faultTicks, from + 20 + rnd.nextInt(300)), isolated));
        }
        int clients = 1 + rnd.nextInt(4);
        int requests = 3 + rnd.nextInt(15);
        boolean byzantineClient = rnd.nextInt(5) == 0;
        // The request-authentication mode and what goes with it come from a stream of their own, so that every
        // schedule drawn before it existed is still drawn as it was (with signatures) when the mode is not MAC.
        // How sequences end, from a stream of its own as well.
        Random endings = new Random(seed * 131 + 0x656e64);
        Scenario.SequenceEnds ends = new Scenario.SequenceEnds(endings.nextBoolean(), endings.nextInt(4) == 0);
        Random mac = new Random(seed * 31 + 0x6d6163);
        boolean macRequests = mac.nextBoolean();
        if (macRequests) {
            for (Set<Behavior> b : byzantine.values()) {
                if (mac.nextInt(3) == 0) {
                    b.add(Behavior.LYING_CLAIMS);
                }
                if (mac.nextInt(4) == 0) {
                    b.add(Behavior.WITHHELD_CLAIMS);
                }
            }
            if (byzantineClient && mac.nextInt(3) == 0) {
                // a schedule in which only the client misbehaves: it must not be able to force a view change
                Scenario.Expiry expiry = expiry(seed, m, Map.of(), true);
                return new Scenario(seed, configuration, m, expiring(options, expiry), clients, requests, true, 0, 0,
                        1 + mac.nextInt(3), faultTicks, List.of(), List.of(), Map.of(), true, ends, expiry);
            }
        }
        boolean amnesia = crashes.stream().anyMatch(Scenario.Crash::amnesia);
        Scenario.Expiry expiry = expiry(seed, m, byzantine, amnesia);
        return new Scenario(seed, configuration, m, expiring(options, expiry), clients, requests, byzantineClient,
                loss, duplication, maxDelay, faultTicks, partitions, crashes, byzantine, macRequests, ends, expiry);
    }

    private static ReplicaOptions expiring(ReplicaOptions options, Scenario.Expiry expiry) {
        return expiry.on() ? options.withSequenceExpiry(expiry.idleLimit(), expiry.clockBound()) : options;
    }

    /**
     * Sequence expiry in half of the schedules, from a stream of its own (earlier seeds' schedules without it are
     * drawn as they were): an idle limit of 2.5 to 6.5 s of simulated time, a clock bound of 250 to 500 ms, correct
     * clocks within a quarter of the bound of true time (so a primary off within the bound is the rule, not the
     * exception), sometimes an idle client, and sometimes a lying clock: added to a Byzantine node's behaviours, or,
     * when no node is faulty yet ({@code byzantine} empty, no restart without memory), on a node of its own.
     */
    private static Scenario.Expiry expiry(long seed, Membership m, Map<Integer, Set<Behavior>> byzantine,
                                          boolean faultBudgetTaken) {
        Random rnd = new Random(seed * 977 + 0x657870);
        if (!rnd.nextBoolean()) {
            return Scenario.Expiry.OFF;
        }
        long idle = (250 + rnd.nextInt(400)) * Scenario.MS_PER_TICK;
        long bound = (25 + rnd.nextInt(25)) * Scenario.MS_PER_TICK;
        long[] skew = new long[m.size()];
        for (int i = 0; i < skew.length; i++) {
            skew[i] = rnd.nextLong(-bound / 4, bound / 4 + 1);
        }
        boolean idler = rnd.nextBoolean();
        Integer liar = null;
        if (!byzantine.isEmpty() && rnd.nextBoolean()) {
            liar = byzantine.keySet().iterator().next();
        } else if (byzantine.isEmpty() && !faultBudgetTaken && rnd.nextInt(3) == 0) {
            liar = rnd.nextInt(m.agreementCount());
        }
        if (liar != null) {
            byzantine.computeIfAbsent(liar, k -> java.util.EnumSet.noneOf(Behavior.class)).add(Behavior.LYING_CLOCK);
            long off = bound * (2 + rnd.nextInt(200));
            skew[liar] = rnd.nextBoolean() ? off : -off;
        }
        return new Scenario.Expiry(idle, bound, skew, idler);
    }

    private static int pickNode(Random rnd, int size, Set<Integer> taken) {
        int node;
        do {
            node = rnd.nextInt(size);
        } while (taken.contains(node));
        return node;
    }

    private static Set<Behavior> behaviors(Random rnd) {
        Behavior[] all = EnumSet.complementOf(EnumSet.of(Behavior.SMUGGLE_NESTED, Behavior.LYING_CLAIMS,
                Behavior.WITHHELD_CLAIMS)).toArray(new Behavior[0]);
        Set<Behavior> chosen = EnumSet.noneOf(Behavior.class);
        int count = 1 + rnd.nextInt(3);
        while (chosen.size() < count) {
            chosen.add(all[rnd.nextInt(all.length)]);
        }
        return chosen;
    }
}
