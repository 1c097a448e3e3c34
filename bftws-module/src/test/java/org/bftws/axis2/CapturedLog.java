package org.bftws.axis2;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.bftws.security.RefusalLog;

/**
 * The log lines written while it is open: the module's (slf4j-simple, on standard error, swapped for a buffer) and
 * Axis2's (commons-logging, which in the module's tests ends in java.util.logging: a handler on its root logger),
 * with every stack frame as a line of its own, as a log file would show them.
 */
final class CapturedLog implements AutoCloseable {
    /**
     * What the Jazzer agent prints on standard error for each class it instruments as it loads: a fuzz test (in
     * regression mode in {@code mvn -B verify}) leaves the agent in its test JVM, which Surefire reuses for the
     * classes after it, so a refusal that loads a class for the first time may print such a line beside its own.
     */
    private static final String JAZZER_NOTICE = "INFO: Instrumented ";
    private final PrintStream originalErr = System.err;
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<String> axis2 = new ArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() < Level.INFO.intValue() || r.getLoggerName() == null
                    || !r.getLoggerName().startsWith("org.apache.axis2")) {
                return;
            }
            synchronized (axis2) {
                axis2.add(r.getLevel() + " " + r.getLoggerName() + " - " + r.getMessage());
                for (Throwable t = r.getThrown(); t != null; t = t.getCause()) {
                    for (StackTraceElement e : t.getStackTrace()) {
                        axis2.add("\tat " + e);
                    }
                }
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    CapturedLog() {
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        Logger.getLogger("").addHandler(handler);
    }

    /** The refusal log's lines, stack frames and exceptions on standard error, and Axis2's lines at INFO or above. */
    List<String> lines() {
        List<String> lines = new ArrayList<>();
        for (String l : err.toString(StandardCharsets.UTF_8).split("\n")) {
            if (l.startsWith(JAZZER_NOTICE)) {
                continue;
            }
            if (l.contains(RefusalLog.class.getName()) || l.startsWith("\tat ") || l.contains("Exception")) {
                lines.add(l);
            }
        }
        synchronized (axis2) {
            lines.addAll(axis2);
        }
        return lines;
    }

    @Override
    public void close() {
        System.setErr(originalErr);
        Logger.getLogger("").removeHandler(handler);
    }
}
