package org.bftws.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's one-minute load average (Linux {@code /proc/loadavg}); NaN where it cannot be read. */
final class Load {

    private Load() {
    }

    static double now() {
        try {
            String line = Files.readString(Path.of("/proc/loadavg")).trim();
            return Double.parseDouble(line.substring(0, line.indexOf(' ')));
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }
}
