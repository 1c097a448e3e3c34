package org.bftws.samples.kv;

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
 * Writes {@code KvService.aar} into an Axis2 repository's {@code services} directory from wherever this class was
 * loaded: a jar (copied as is: it already is a service archive) or a classes directory during a reactor build
 * (zipped). Lets tests and the testbed deploy the sample without a prior {@code mvn package}.
 */
public final class KvServiceArchive {

    private KvServiceArchive() {
    }

    /** Returns the written archive, {@code servicesDir/KvService.aar}. */
    public static Path writeTo(Path servicesDir) throws IOException {
        Files.createDirectories(servicesDir);
        Path target = servicesDir.resolve("KvService.aar");
        Path source = codeSource();
        if (Files.isDirectory(source)) {
            zip(source, target);
        } else {
            Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return target;
    }

    private static Path codeSource() {
        try {
            return Path.of(KvService.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the key-value service's classes", e);
        }
    }

    private static void zip(Path dir, Path target) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        try (OutputStream out = Files.newOutputStream(target); ZipOutputStream zip = new ZipOutputStream(out)) {
            for (Path file : files) {
                zip.putNextEntry(new ZipEntry(dir.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, zip);
                zip.closeEntry();
            }
        }
    }
}
