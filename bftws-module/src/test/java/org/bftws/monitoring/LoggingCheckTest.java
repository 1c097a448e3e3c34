package org.bftws.monitoring;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLoggerFactory;

/** The module says once, on stderr, that its log is lost when SLF4J has no provider, and names what to add. */
class LoggingCheckTest {

    @Test
    void withoutAProviderTheWarningNamesTheArtifactsToAdd() {
        String warning = LoggingCheck.warning(new NOPLoggerFactory()).orElseThrow();
        assertTrue(warning.contains("org.slf4j:slf4j-simple") && warning.contains("org.slf4j:jcl-over-slf4j"),
                warning);
    }

    @Test
    void withAProviderThereIsNoWarning() {
        assertTrue(LoggingCheck.warning(LoggerFactory.getILoggerFactory()).isEmpty(),
                "the tests run with slf4j-simple: " + LoggerFactory.getILoggerFactory());
    }
}
