package org.bftws.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The figures a measurement reads from a replica's status page ({@code GET /bftws/status} on its HTTP port, the
 * product's monitoring, docs/operations.md): heap in use, live last-reply entries and the stable checkpoint's bytes.
 * The page is JSON; these three members are numbers whose names occur once, so a pattern per member reads them.
 *
 * @param heapUsedBytes         heap in use in the replica's JVM
 * @param replyEntries          live entries of its last-reply table (client sequences not ended)
 * @param stableCheckpointBytes bytes of its stable checkpoint (state and reply table), -1 when it holds none
 * @param stableCheckpoint      the stable checkpoint's sequence number
 */
record ReplicaStatus(long heapUsedBytes, long replyEntries, long stableCheckpointBytes, long stableCheckpoint) {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** The status of the replica listening on {@code port} of 127.0.0.1; empty when it does not answer in time. */
    static Optional<ReplicaStatus> read(int port, Duration timeout) {
        return page(port, timeout).map(ReplicaStatus::parse);
    }

    /**
     * Counter {@code name} of the status page of the replica listening on {@code port} of 127.0.0.1 (a member of its
     * {@code rmCounters} or {@code counters}, e.g. "sequences refused: the party holds its maximum"); empty when the
     * replica does not answer in time or the page has no such counter.
     */
    static Optional<Long> counter(int port, String name, Duration timeout) {
        long value = page(port, timeout).map(json -> number(json, Pattern.quote(name))).orElse(-1L);
        return value < 0 ? Optional.empty() : Optional.of(value);
    }

    /**
     * The status document (JSON) of the replica listening on {@code port} of 127.0.0.1: answered with 200, or with 503
     * when the replica executes nothing (it says why in the same document); empty when it does not answer in time.
     */
    private static Optional<String> page(int port, Duration timeout) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/bftws/status")).timeout(timeout).GET().build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 || (r.statusCode() == 503 && r.body().startsWith("{"))
                    ? Optional.of(r.body()) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** The figures of a status page; a member that is missing reads -1. */
    static ReplicaStatus parse(String json) {
        return new ReplicaStatus(number(json, "heapUsedBytes"), number(json, "replyEntries"),
                number(json, "stableCheckpointBytes"), number(json, "stableCheckpoint"));
    }

    /** Member {@code member} (a pattern) of {@code json} as a number, or -1. */
    private static long number(String json, String member) {
        Matcher m = Pattern.compile("\"" + member + "\"\\s*:\\s*(-?\\d+)").matcher(json);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    static long megabytes(long bytes) {
        return Math.round(bytes / (1024.0 * 1024.0));
    }
}
