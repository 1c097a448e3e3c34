package org.bftws.samples.echo;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The echo service's state: an append-only log whose running SHA-256 depends on the order of the appends, plus
 * inert padding so benchmarks can checkpoint and transfer states of a chosen size.
 *
 * <p>The running digest is d0 = 32 zero bytes, d(n) = SHA-256(d(n-1) || UTF-8(value n)). Two replicas that executed
 * the same appends in the same order have equal digests; any difference in order or content shows.
 *
 * <p>Not thread-safe: {@link EchoService} serialises access.
 */
final class EchoState {

    /** Text of every padding element: deterministic, so equal pad counts mean equal states on every replica. */
    static final String PAD_TEXT = "0123456789abcdef".repeat(4);

    private final List<String> log = new ArrayList<>();
    private byte[] digest = new byte[32];
    private int padElements;

    EchoState(int padElements) {
        if (padElements < 0) {
            throw new IllegalArgumentException("padding element count must not be negative: " + padElements);
        }
        this.padElements = padElements;
    }

    /** Appends {@code value} and returns the new log length. */
    int append(String value) {
        log.add(value);
        digest = chain(digest, value);
        return log.size();
    }

    int count() {
        return log.size();
    }

    String digestHex() {
        return HexFormat.of().formatHex(digest);
    }

    List<String> log() {
        return List.copyOf(log);
    }

    int padElements() {
        return padElements;
    }

    /**
     * Replaces the whole state after checking that {@code claimedDigest} is the running digest of {@code entries}:
     * a corrupted or truncated state is refused rather than silently installed.
     */
    void replace(List<String> entries, String claimedDigest, int pads) {
        byte[] d = new byte[32];
        for (String e : entries) {
            d = chain(d, e);
        }
        String actual = HexFormat.of().formatHex(d);
        if (!actual.equalsIgnoreCase(claimedDigest)) {
            throw new IllegalArgumentException("state digest " + claimedDigest + " does not match its "
                    + entries.size() + " log entries (they digest to " + actual + ")");
        }
        if (pads < 0) {
            throw new IllegalArgumentException("padding element count must not be negative: " + pads);
        }
        log.clear();
        log.addAll(entries);
        digest = d;
        padElements = pads;
    }

    private static byte[] chain(byte[] previous, String value) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(previous);
            sha.update(value.getBytes(StandardCharsets.UTF_8));
            return sha.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always provides SHA-256", e);
        }
    }
}
