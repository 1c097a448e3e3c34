package org.bftws.security;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

/** Loading and saving PKCS#12 stores, with errors that say which file and why. */
final class Pkcs12 {
    private Pkcs12() {
    }

    static KeyStore empty() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("the JDK has no PKCS12 keystore", e);
        }
    }

    static KeyStore load(Path file, char[] password) {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            return store;
        } catch (IOException e) {
            if (e.getCause() instanceof java.security.UnrecoverableKeyException) {
                throw new IllegalStateException(file + ": wrong store password (see storePassword in replicas.xml)", e);
            }
            throw new UncheckedIOException(file + ": cannot read keystore: " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(file + ": not a usable PKCS#12 keystore: " + e.getMessage(), e);
        }
    }

    /** Writes atomically (a half-written keystore would lock a node out) and readable by the owner only. */
    static void save(KeyStore store, Path file, char[] password) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
            try {
                try {
                    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
                } catch (UnsupportedOperationException notPosix) {
                    // Windows: the directory's ACL applies
                }
                try (OutputStream out = Files.newOutputStream(tmp)) {
                    store.store(out, password);
                }
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot write keystore: " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(file + ": cannot encode keystore", e);
        }
    }
}
