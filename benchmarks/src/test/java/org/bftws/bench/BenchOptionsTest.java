package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;
import org.junit.jupiter.api.Test;

import picocli.CommandLine.ParameterException;

class BenchOptionsTest {

    private static final Path HOME = Path.of("/checkout/.bftws");

    @Test
    void theFullSuiteIsThePapersGridAndWritesIntoDocs() {
        BenchOptions o = BenchOptions.parse(new String[] {"--home", HOME.toString()});
        assertEquals(List.of(1, 10, 100, 1000), o.sizes());
        assertEquals(List.of(1, 2, 4, 8), o.clients());
        assertEquals(List.of(SecurityProfile.MAC, SecurityProfile.WSSEC), o.profiles());
        assertEquals(List.of(Configuration.I, Configuration.II, Configuration.III), o.configurations());
        assertEquals(1000, o.samples());
        assertEquals(Path.of("/checkout/docs/bench"), o.out());
        assertEquals(Path.of("/checkout/docs/benchmarks.md"), o.page());
    }

    @Test
    void aFullRunWarmsEachSetupUpForMinutesSoItsFirstPointsAreNotMeasuredCold() {
        BenchOptions full = BenchOptions.parse(new String[] {"--home", HOME.toString()});
        assertEquals(20_000, full.setupWarmup());
        assertEquals(Duration.ofMinutes(3), full.setupWarmupCap());
        BenchOptions quick = BenchOptions.parse(new String[] {"--quick", "--home", HOME.toString()});
        assertEquals(400, quick.setupWarmup());
        assertEquals(Duration.ofSeconds(6), quick.setupWarmupCap(), "the quick suite stays under 3 minutes");
    }

    @Test
    void quickUsesSmallerNumbersAndLeavesTheCommittedPageAlone() {
        BenchOptions o = BenchOptions.parse(new String[] {"--quick", "--home", HOME.toString()});
        assertTrue(o.quick());
        assertTrue(o.samples() < 1000);
        assertTrue(o.measureCap().compareTo(Duration.ofSeconds(15)) <= 0, o.measureCap().toString());
        assertEquals(Path.of("/checkout/.bftws/bench-quick"), o.out());
        assertEquals(Path.of("/checkout/.bftws/bench-quick/benchmarks.md"), o.page());
    }

    @Test
    void gridListsAreParsedSortedAndWithoutRepeats() {
        BenchOptions o = BenchOptions.parse(new String[] {"--sizes", "100,1,100", "--clients", "8,1",
                "--profiles", "wssec", "--configs", "iii,I", "--samples", "50", "--home", HOME.toString()});
        assertEquals(List.of(1, 100), o.sizes());
        assertEquals(List.of(1, 8), o.clients());
        assertEquals(List.of(SecurityProfile.WSSEC), o.profiles());
        assertEquals(List.of(Configuration.III, Configuration.I), o.configurations());
        assertEquals(50, o.samples());
    }

    @Test
    void bftSmartsRunnerIsFoundBesideTheCheckoutUnlessAnotherIsNamedOrNone() {
        BenchOptions full = BenchOptions.parse(new String[] {"--home", HOME.toString()});
        assertEquals(Path.of("/shared/peers/bftsmart/run.py"), full.peer(), "../shared/peers/bftsmart/run.py");
        assertEquals(10_000, full.peerOps());
        BenchOptions quick = BenchOptions.parse(new String[] {"--quick", "--peer", "/opt/run.py", "--home",
                HOME.toString()});
        assertEquals(Path.of("/opt/run.py"), quick.peer());
        assertTrue(quick.peerOps() < 1000 && quick.peerWarmOps() < 1000, "quick runs the peer briefly");
        assertEquals(null, BenchOptions.parse(new String[] {"--no-peer", "--home", HOME.toString()}).peer());
        ParameterException e = assertThrows(ParameterException.class,
                () -> BenchOptions.parse(new String[] {"--no-peer", "--peer", "/opt/run.py"}));
        assertTrue(e.getMessage().contains("--no-peer"), e.getMessage());
    }

    @Test
    void badValuesAreRefusedWithTheOptionNamed() {
        ParameterException e = assertThrows(ParameterException.class,
                () -> BenchOptions.parse(new String[] {"--clients", "1,two"}));
        assertTrue(e.getMessage().contains("--clients"), e.getMessage());
        e = assertThrows(ParameterException.class, () -> BenchOptions.parse(new String[] {"--profiles", "rsa"}));
        assertTrue(e.getMessage().contains("--profiles") && e.getMessage().contains("rsa"), e.getMessage());
        e = assertThrows(ParameterException.class, () -> BenchOptions.parse(new String[] {"--clients", "0"}));
        assertTrue(e.getMessage().contains("between 1 and 256"), e.getMessage());
        e = assertThrows(ParameterException.class, () -> BenchOptions.parse(new String[] {"--fast"}));
        assertTrue(e.getMessage().contains("--fast"), e.getMessage());
    }
}
