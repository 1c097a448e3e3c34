package org.bftws.axis2.ordering;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The replica side is split by concern, as BFT-SMaRt splits its own: ordering drives the core and uses the others;
 * state, metrics and the replica channels never reach back into ordering, so each can be read and tested alone.
 */
class ReplicaPackagesTest {
    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.bftws.axis2");

    @Test
    void stateMetricsAndChannelsDoNotDependOnOrdering() {
        noClasses().that().resideInAnyPackage("org.bftws.axis2.state..", "org.bftws.axis2.metrics..",
                        "org.bftws.axis2.channels..")
                .should().dependOnClassesThat().resideInAPackage("org.bftws.axis2.ordering..")
                .check(classes);
    }

    @Test
    void metricsObserveTheCoreAndNothingOfAxis2() {
        noClasses().that().resideInAPackage("org.bftws.axis2.metrics..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache..", "org.bftws.axis2.state..",
                        "org.bftws.axis2.channels..")
                .check(classes);
    }
}
