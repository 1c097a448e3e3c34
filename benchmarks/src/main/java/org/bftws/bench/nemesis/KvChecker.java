package org.bftws.bench.nemesis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The outside judge of a nemesis history: kvcheck, a small Go program (benchmarks/src/main/go/kvcheck) that runs
 * Porcupine (github.com/anishathalye/porcupine) with a key-value model. {@link #build} compiles it with {@code go
 * build -mod=readonly} (the version go.sum pins) into the state directory when the binary is missing or older than its
 * sources; {@link #check} runs it.
 */
public final class KvChecker {

    /** What kvcheck answered. */
    public enum Verdict { YES, NO, UNKNOWN }

    /** Its verdict and the line it printed. */
    public record Result(Verdict verdict, String line) {
    }

    private static final long BUILD_TIMEOUT_MINUTES = 10;
    private static final long CHECK_TIMEOUT_MINUTES = 30;

    private final Path binary;

    private KvChecker(Path binary) {
        this.binary = binary;
    }

    /** Why the checker cannot be built here (no Go), or empty. */
    public static Optional<String> refusal() {
        return go().isPresent() ? Optional.empty()
                : Optional.of("no 'go' command (on the PATH, in $GOROOT/bin or /usr/local/go/bin) to build the "
                + "history's checker (Porcupine) with");
    }

    /** The go command: on the PATH, else in $GOROOT/bin, else where Go's own archive installs it. */
    static Optional<String> go() {
        Optional<String> onPath = Network.onPath("go");
        if (onPath.isPresent()) {
            return onPath;
        }
        String root = System.getenv("GOROOT");
        for (Path p : root == null ? List.of(Path.of("/usr/local/go/bin/go"))
                : List.of(Path.of(root, "bin", "go"), Path.of("/usr/local/go/bin/go"))) {
            if (Files.isExecutable(p)) {
                return Optional.of(p.toString());
            }
        }
        return Optional.empty();
    }

    /**
     * The checker's sources: {@code -Dbftws.kvcheck.source=DIR}, else benchmarks/src/main/go/kvcheck of the checkout
     * whose state directory is {@code home}, or of the working directory (the checkout or its benchmarks module).
     */
    public static Path sourceDirectory(Path home) throws IOException {
        List<Path> candidates = new ArrayList<>();
        String property = System.getProperty("bftws.kvcheck.source");
        if (property != null) {
            candidates.add(Path.of(property));
        } else {
            Path tail = Path.of("src", "main", "go", "kvcheck");
            if (home != null && home.toAbsolutePath().getParent() != null) {
                candidates.add(home.toAbsolutePath().getParent().resolve("benchmarks").resolve(tail));
            }
            Path cwd = Path.of("").toAbsolutePath();
            candidates.add(cwd.resolve("benchmarks").resolve(tail));
            candidates.add(cwd.resolve(tail));
        }
        for (Path c : candidates) {
            if (Files.isRegularFile(c.resolve("go.mod"))) {
                return c;
            }
        }
        throw new IOException("the checker's sources (go.mod) are not in " + candidates);
    }

    /** Builds {@code source} into {@code dir/kvcheck} when missing or stale; returns the checker. */
    public static KvChecker build(Path source, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path binary = dir.resolve("kvcheck").toAbsolutePath();
        if (Files.isExecutable(binary) && !newerThan(source, Files.getLastModifiedTime(binary))) {
            return new KvChecker(binary);
        }
        Path log = dir.resolve("kvcheck-build.log");
        String go = go().orElseThrow(() -> new IOException(refusal().orElse("no go command")));
        // -mod=readonly: the module versions are the ones go.sum pins, never updated by the build (after GOFLAGS, so
        // it wins); the module comes from the module cache, or from the module proxy unless GOPROXY=off
        Process p = new ProcessBuilder(go, "build", "-mod=readonly", "-o", binary.toString(), ".")
                .directory(source.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(BUILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("go build of the checker took more than " + BUILD_TIMEOUT_MINUTES + " min");
        }
        if (p.exitValue() != 0) {
            throw new IOException("go build of the checker (" + source + ") failed: "
                    + Files.readString(log, StandardCharsets.UTF_8).trim() + " (its module, Porcupine, comes from "
                    + "the Go module proxy into the module cache: 'go mod download' in " + source
                    + " fetches it, as .ci/prerequisites does)");
        }
        return new KvChecker(binary);
    }

    private static boolean newerThan(Path dir, FileTime time) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                if (Files.getLastModifiedTime(f).compareTo(time) > 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Judges {@code history}; with {@code html} not null, Porcupine's visualization goes there when it says no. */
    public Result check(Path history, Path html) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        if (html != null) {
            command.addAll(List.of("-html", html.toString()));
        }
        command.add(history.toString());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(CHECK_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            return new Result(Verdict.UNKNOWN, "linearizable: unknown (kvcheck ran longer than "
                    + CHECK_TIMEOUT_MINUTES + " min)");
        }
        String text = new String(out, StandardCharsets.UTF_8).trim();
        String line = text.lines().filter(l -> l.startsWith("linearizable: ")).findFirst().orElse(null);
        return switch (p.exitValue()) {
            case 0 -> new Result(Verdict.YES, line);
            case 1 -> new Result(Verdict.NO, line);
            case 3 -> new Result(Verdict.UNKNOWN, line);
            default -> throw new IOException("kvcheck could not judge " + history + ": " + text);
        };
    }
}
