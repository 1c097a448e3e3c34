package org.bftws.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * What a process read from a password-protected PKCS#12 file, read once per process and version of the file.
 *
 * <p>Why: opening a PKCS#12 store costs a PBKDF2 derivation for its integrity MAC and one per key entry (10,000
 * HMAC-SHA256 iterations each by the JDK's defaults). A node's keystore was opened by the replica, the mac profile's
 * authenticator and the WS-Security profile, each for itself, and a restarted replica spent about 2.5 s of CPU in a
 * cold JVM on it, at the moment it also fetched its first state. The result of a load is immutable, so it is shared.
 *
 * <p>Nothing is weakened: a caller gets the loaded value only with the password the file was opened with (compared
 * in constant time; any other password goes to the file again and fails there as before), and a file that was
 * rewritten (other size, modification time or file identity, as {@code keygen --force}'s atomic replace makes) is
 * read again. A failed load is not remembered.
 */
final class LoadedOnce<T> {

    private record FileVersion(Path file, Object identity, FileTime modified, long size) {
    }

    private static final class Entry<T> {
        private final char[] password;
        private T value;

        Entry(char[] password) {
            this.password = password.clone();
        }

        /** One thread reads the file; the others asking for it meanwhile wait for its result. */
        synchronized T get(Supplier<T> load) {
            if (value == null) {
                value = Objects.requireNonNull(load.get());
            }
            return value;
        }

        boolean opensWith(char[] candidate) {
            byte[] a = new String(password).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            byte[] b = new String(candidate).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            return MessageDigest.isEqual(a, b);
        }
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LoadedOnce.class);

    private final Map<FileVersion, Entry<T>> loaded = new ConcurrentHashMap<>();
    private final AtomicInteger reads = new AtomicInteger();

    /** The value {@code load} makes of {@code file}, made once per version of the file and password. */
    T get(Path file, char[] password, Supplier<T> load) {
        FileVersion version = versionOf(file);
        Entry<T> entry = loaded.computeIfAbsent(version, v -> new Entry<>(password));
        if (!entry.opensWith(password)) {
            // not the password the shared value was read with: read the file as if nothing was shared
            reads.incrementAndGet();
            return load.get();
        }
        try {
            return entry.get(() -> {
                reads.incrementAndGet();
                long started = System.nanoTime();
                T value = load.get();
                LOG.info("read {} in {} ms (once for this process)", file, (System.nanoTime() - started) / 1_000_000);
                return value;
            });
        } catch (RuntimeException e) {
            loaded.remove(version, entry);
            throw e;
        }
    }

    /** How many times a file was actually read (for tests and diagnostics). */
    int reads() {
        return reads.get();
    }

    private static FileVersion versionOf(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        try {
            BasicFileAttributes a = Files.readAttributes(absolute, BasicFileAttributes.class);
            return new FileVersion(absolute, a.fileKey(), a.lastModifiedTime(), a.size());
        } catch (IOException e) {
            // the loader reports a missing or unreadable file with its own message (and the entry is removed)
            return new FileVersion(absolute, new Object(), null, -1);
        }
    }
}
