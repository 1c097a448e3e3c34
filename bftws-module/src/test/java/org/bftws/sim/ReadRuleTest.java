package org.bftws.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The oracle's read linearizability check can fail: with a read rule that is wrong, some seeded schedule shows a
 * client accepting a read that no linearizable execution could return (a stale state, or one no correct executor
 * had). The correct rule's schedules are {@link SimulatedSchedulesTest}'s, about half of which read.
 */
class ReadRuleTest {

    private static final int SEEDS = 1000;

    @Test
    void acceptingAReadOnFPlusOneIdenticalAnswersIsCaughtByTheOracle() {
        Optional<Simulation.Result> caught = firstCaught(Scenario.ReadRule.F_PLUS_ONE_READS);
        assertTrue(caught.isPresent(), "no schedule among " + SEEDS + " caught reads accepted on f+1 answers");
    }

    @Test
    void decidingWritesOnFPlusOneRepliesWithThreeFPlusOneExecutorsLetsA2fPlus1ReadBeStaleAndIsCaught() {
        Optional<Simulation.Result> caught = firstCaught(Scenario.ReadRule.F_PLUS_ONE_WRITES);
        assertTrue(caught.isPresent(), "no schedule among " + SEEDS + " caught writes decided on f+1 replies");
    }

    private static Optional<Simulation.Result> firstCaught(Scenario.ReadRule rule) {
        Optional<Simulation.Result> caught = LongStream.range(0, SEEDS)
                .mapToObj(seed -> Simulation.run(ScenarioGenerator.generate(seed)
                        .withReads(new Scenario.Reads(true, rule)), false))
                .filter(r -> r.violations().stream().anyMatch(v -> v.startsWith("read linearizability")))
                .findFirst();
        caught.ifPresent(r -> System.out.println(rule + " caught by seed " + r.scenario().seed() + ": "
                + r.violations()));
        return caught;
    }
}
