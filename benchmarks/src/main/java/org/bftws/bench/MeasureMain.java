package org.bftws.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;

import org.bftws.config.SecurityProfile;
import org.bftws.server.Cli;

/**
 * {@code ./bftws measure checkpoint|transfer|viewchange|failover|all}: the recovery figures of the BFT-WS paper
 * (Figs 9-11) and the failover time, measured on replica JVMs of this machine; tables in Markdown on standard
 * output (docs/recovery.md explains the method). Every group it starts is stopped before the next one starts.
 */
public final class MeasureMain {

    private MeasureMain() {
    }

    public static void main(String[] args) {
        Cli.exit(new MeasureCommand(), args);
    }

    static int run(MeasureOptions options, PrintStream out) {
        out.println("measure: " + String.join(", ", options.what()) + (options.quick() ? " (quick)" : "")
                + ", security " + options.security().name().toLowerCase(java.util.Locale.ROOT) + ", "
                + LocalDateTime.now().withNano(0) + ", load average " + loadAverage() + ", "
                + Runtime.getRuntime().availableProcessors() + " cores");
        try {
            if (options.security() != SecurityProfile.NONE) {
                out.println(new TestbedKeys(options.home().resolve("testbed").resolve("keys")).ensure());
            }
            for (String what : options.what()) {
                out.println();
                switch (what) {
                    case "checkpoint" -> CheckpointFigures.run(options, out);
                    case "transfer" -> TransferFigures.run(options, out);
                    case "viewchange" -> ViewChangeFigures.run(options, out);
                    case "failover" -> FailoverFigures.run(options, out);
                    case "sequences" -> SequenceFigures.run(options, out);
                    case "overload" -> OverloadFigures.run(options, out);
                    default -> throw new IllegalStateException("unknown experiment " + what);
                }
            }
            out.println();
            out.println("measure: done, load average " + loadAverage());
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("measure: interrupted");
            return 1;
        } catch (Exception e) {
            out.println("measure: failed: " + e);
            return 1;
        }
    }

    /** The 1, 5 and 15 minute load averages (the machine is shared: figures mean little without them). */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
