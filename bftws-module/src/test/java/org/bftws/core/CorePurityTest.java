package org.bftws.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The PBFT core is a deterministic state machine: no Axis2 or AXIOM, no sockets, no threads or executors, no clocks,
 * and nothing from the rest of BFT-WS. Inputs are messages and ticks; everything else lives in the adapters.
 */
class CorePurityTest {

    private static final JavaClasses CORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("org.bftws.core");

    @Test
    void theCoreImportsNeitherAxis2NorAxiom() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.apache.axis2..", "org.apache.axiom..")
                .check(CORE);
    }

    @Test
    void theCoreOpensNoSocketsAndStartsNoThreadsOrExecutors() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("java.net..", "java.nio.channels..",
                "java.util.concurrent..").check(CORE);
        noClasses().should().dependOnClassesThat().areAssignableTo(Thread.class).check(CORE);
        noClasses().should().dependOnClassesThat().areAssignableTo(java.util.Timer.class).check(CORE);
    }

    @Test
    void theCoreReadsNoClockAndNoRandomness() {
        noClasses().should().callMethod(System.class, "currentTimeMillis").check(CORE);
        noClasses().should().callMethod(System.class, "nanoTime").check(CORE);
        noClasses().should().dependOnClassesThat().resideInAnyPackage("java.time..").check(CORE);
        noClasses().should().dependOnClassesThat().areAssignableTo(java.util.Random.class).check(CORE);
    }

    @Test
    void theCoreDependsOnNothingElseInBftWs() {
        noClasses().should().dependOnClassesThat(
                com.tngtech.archunit.base.DescribedPredicate.describe("BFT-WS classes outside the core",
                        c -> c.getPackageName().startsWith("org.bftws") && !c.getPackageName().equals("org.bftws.core")))
                .check(CORE);
    }
}
