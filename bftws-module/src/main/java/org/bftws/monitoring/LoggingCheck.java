package org.bftws.monitoring;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLoggerFactory;

/**
 * The module logs through SLF4J. A stock Axis2 server ships no SLF4J provider, and without one SLF4J drops every
 * line: a replica's refusals, view changes and divergence warnings would vanish. So the module says it once, on
 * stderr (the one place left), with what to add.
 */
public final class LoggingCheck {

    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private LoggingCheck() {
    }

    /** Prints the warning on stderr once per JVM when SLF4J found no provider. */
    public static void warnOnceWithoutProvider() {
        warning(LoggerFactory.getILoggerFactory()).ifPresent(w -> {
            if (WARNED.compareAndSet(false, true)) {
                System.err.println(w);
            }
        });
    }

    /** The warning for SLF4J's logger factory {@code factory}: present when it is SLF4J's no-operation fallback. */
    static Optional<String> warning(ILoggerFactory factory) {
        if (!(factory instanceof NOPLoggerFactory)) {
            return Optional.empty();
        }
        return Optional.of("bftws: no SLF4J provider on the classpath, so the bftws module's log (refusals, view "
                + "changes, divergence) is discarded. Add one next to the module's jars, e.g. "
                + "org.slf4j:slf4j-simple:2.0.13 (or ch.qos.logback:logback-classic), and "
                + "org.slf4j:jcl-over-slf4j:2.0.13 in place of commons-logging so Axis2's own log joins it "
                + "(docs/operations.md, \"Logging\").");
    }
}
