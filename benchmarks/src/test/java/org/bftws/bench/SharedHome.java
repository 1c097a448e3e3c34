package org.bftws.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The {@code --home} that every testbed and tool run a test JVM starts shares, with the testbed's keys
 * ({@code testbed/keys}, which every command reads there) made once, by the test JVM itself: about 4 s with C2,
 * where a JVM that runs the client compiler only ({@link Jvm#SHORT_RUN}) spends half a minute of CPU on the RSA keys,
 * and more than two minutes beside another test's replicas. Each run writes a run directory of its own under it; the
 * whole directory is deleted when the test JVM exits.
 */
final class SharedHome {

    private static Path home;

    private SharedHome() {
    }

    /** The shared home, its keys made on the first call. */
    static synchronized Path withKeys() throws IOException {
        if (home == null) {
            Path dir = Files.createTempDirectory("bftws-test-home");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir), "delete-shared-home"));
            long t0 = System.nanoTime();
            System.out.println(new TestbedKeys(dir.resolve("testbed").resolve("keys")).ensure() + " in "
                    + (System.nanoTime() - t0) / 1_000_000L + " ms, for every run of this test JVM");
            home = dir;
        }
        return home;
    }

    private static void delete(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
