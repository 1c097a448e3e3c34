package org.bftws.axis2.ordering;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.bftws.samples.echo.EchoServiceArchive;

/** An Axis2 repository with the addressing module and the echo sample, for an engine of a test's own. */
final class EchoRepository {
    private EchoRepository() {
    }

    static Path create(Path dir) throws IOException {
        Path modules = Files.createDirectories(dir.resolve("modules"));
        Files.copy(Path.of("target", "axis2-modules", "addressing.mar"), modules.resolve("addressing.mar"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.createDirectories(dir.resolve("services"));
        EchoServiceArchive.writeTo(dir.resolve("services"));
        return dir;
    }
}
