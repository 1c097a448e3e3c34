package org.bftws.channels;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The binary replica channel's path, from the sender's queue to the core, goes through no Axis2 and no AXIOM. */
class BinaryChannelLayeringTest {
    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.bftws.channels", "org.bftws.wire");

    @Test
    void theTransportDependsOnTheJdkAndLoggingOnly() {
        classes().that().resideInAPackage("org.bftws.channels.tcp").should().onlyDependOnClassesThat()
                .resideInAnyPackage("org.bftws.channels.tcp", "java..", "javax.crypto..", "javax.net.ssl..", "org.slf4j..")
                .check(classes);
    }

    @Test
    void theBinaryChannelAndItsCodecUseNeitherAxis2NorAxiom() {
        noClasses().that().haveSimpleNameStartingWith("BinaryChannel")
                .or().haveSimpleNameStartingWith("BinaryCodec")
                .or().haveSimpleNameStartingWith("BinaryMessageReader")
                .or().haveSimpleNameStartingWith("CanonicalReader")
                .or().haveSimpleNameStartingWith("PeerQueue")
                .or().haveSimpleNameStartingWith("SnapshotPins")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache..")
                .check(classes);
    }
}
