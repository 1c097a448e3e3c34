package org.bftws.rm;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class RmLayeringTest {

    @Test
    void theWsrmLogicDependsOnTheJdkOnlySoItIsTestableWithoutAxis2() {
        JavaClasses rm = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.bftws.rm");
        classes().that().resideInAPackage("org.bftws.rm").should().onlyDependOnClassesThat()
                .resideInAnyPackage("org.bftws.rm", "java..").check(rm);
    }
}
