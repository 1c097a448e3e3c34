package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;

/**
 * The replica launcher's classpath has one logging route: Axis2's commons-logging calls reach SLF4J (jcl-over-slf4j
 * in place of commons-logging), whose provider also writes the module's own lines.
 */
class LoggingRouteTest {

    @Test
    void axis2sCommonsLoggingIsBridgedToSlf4j() {
        String log = LogFactory.getLog(org.apache.axis2.engine.AxisEngine.class).getClass().getName();
        assertTrue(log.startsWith("org.apache.commons.logging.impl.SLF4J"), "commons-logging goes to " + log);
        assertTrue(org.slf4j.LoggerFactory.getILoggerFactory().getClass().getName().startsWith("org.slf4j.simple"),
                "slf4j-simple writes the log: " + org.slf4j.LoggerFactory.getILoggerFactory());
    }
}
