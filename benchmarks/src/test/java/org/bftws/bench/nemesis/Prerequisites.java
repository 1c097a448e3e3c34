package org.bftws.bench.nemesis;

import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test does when this machine lacks something it needs (network namespaces, Go): where the machine must have
 * it, the test fails with the reason; elsewhere it is skipped, and the reason is printed, so it shows in the build's
 * output beside surefire's Skipped count. The machine must have it under {@code -Dbftws.prerequisites=required}, or,
 * without that property, when the environment has CI=true (as CI runs .ci/run, which installs what can be
 * installed); {@code -Dbftws.prerequisites=optional} lets a machine that cannot (no root, say) skip also under CI.
 */
public final class Prerequisites {

    /** The system property that decides, over the CI variable. */
    public static final String PROPERTY = "bftws.prerequisites";

    /** Whether a missing prerequisite fails the test, and what says so (and, where it skips, what would not). */
    record Policy(boolean required, String because) {
    }

    private Prerequisites() {
    }

    /** The policy for {@code -Dbftws.prerequisites} = {@code property} (or null) and the CI variable {@code ci}. */
    static Policy policy(String property, String ci) {
        if (property == null || property.isBlank()) {
            boolean underCi = ci != null && (ci.equalsIgnoreCase("true") || ci.equals("1"));
            return underCi ? new Policy(true, "CI=" + ci)
                    : new Policy(false, "not under CI=true; CI=true or -D" + PROPERTY
                            + "=required makes this a failure");
        }
        return switch (property.trim().toLowerCase(Locale.ROOT)) {
            case "required" -> new Policy(true, "-D" + PROPERTY + "=required");
            case "optional" -> new Policy(false, "-D" + PROPERTY + "=optional");
            default -> throw new IllegalArgumentException("-D" + PROPERTY + " is required or optional, not "
                    + property);
        };
    }

    /**
     * Returns when nothing is {@code missing}; otherwise fails the calling test with the reason, or skips it after
     * printing the reason, as this machine's policy says.
     *
     * @param what    what the test needs, for the message ("network namespaces")
     * @param missing why it cannot be had here, or empty
     */
    public static void require(String what, Optional<String> missing) {
        String caller = StackWalker.getInstance().walk(s -> s.skip(1).findFirst())
                .map(f -> f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "." + f.getMethodName())
                .orElse("a test");
        require(policy(System.getProperty(PROPERTY), System.getenv("CI")), caller, what, missing, System.out);
    }

    /** Why {@code command} cannot be run here (it is on no directory of the PATH), or empty. */
    public static Optional<String> command(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return Optional.empty();
            }
        }
        return Optional.of("no '" + command + "' command on the PATH");
    }

    static void require(Policy policy, String caller, String what, Optional<String> missing, PrintStream out) {
        if (missing.isEmpty()) {
            return;
        }
        String reason = caller + " needs " + what + ": " + missing.get();
        if (policy.required()) {
            Assertions.fail(reason + " (required here, " + policy.because() + "; .ci/prerequisites installs what "
                    + "can be installed)");
        }
        out.println("SKIPPED " + reason + " (" + policy.because() + ")");
        Assumptions.abort(reason);
    }
}
