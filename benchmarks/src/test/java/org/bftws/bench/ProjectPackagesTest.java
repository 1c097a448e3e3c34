package org.bftws.bench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Across everything the tools see (the module, the server commands, the samples and the tools themselves): no package
 * cycles, and what a deployment runs never depends on the testbed and benchmark tools.
 */
class ProjectPackagesTest {
    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.bftws");

    @Test
    void noPackageOfTheProjectDependsOnAPackageThatDependsOnIt() {
        slices().matching("org.bftws.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void theProductNeverDependsOnTheTools() {
        noClasses().that().resideOutsideOfPackages("org.bftws.bench..", "org.bftws.wire.costs..")
                .should().dependOnClassesThat().resideInAnyPackage("org.bftws.bench..", "org.bftws.wire.costs..")
                .check(classes);
    }
}
