package org.bftws.samples.ledger;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes {@code LedgerService.aar} into an Axis2 repository's {@code services} directory from wherever this class was
 * loaded: a jar (copied: it already is the archive) or a classes directory during a reactor build (zipped), so tests
 * deploy the sample without a prior {@code mvn package}.
 */
public final class LedgerServiceArchive {

    /** The archive's file name. */
    public static final String FILE = "LedgerService.aar";

    private LedgerServiceArchive() {
    }

    /** Returns the written archive, {@code servicesDir/LedgerService.aar}. */
    public static Path writeTo(Path servicesDir) throws IOException {
        Files.createDirectories(servicesDir);
        Path target = servicesDir.resolve(FILE);
        Path source;
        try {
            source = Path.of(LedgerService.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException("cannot locate the ledger service's classes", e);
        }
        if (!Files.isDirectory(source)) {
            return Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(source)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        try (OutputStream out = Files.newOutputStream(target); ZipOutputStream zip = new ZipOutputStream(out)) {
            for (Path file : files) {
                zip.putNextEntry(new ZipEntry(source.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, zip);
                zip.closeEntry();
            }
        }
        return target;
    }
}
