package org.bftws.bench;

import java.util.List;
import java.util.Optional;

/**
 * One run of BFT-SMaRt's microbenchmark by the suite (a "peer row"), or why it was not measured. Missing figures are
 * NaN.
 *
 * @param clients           closed-loop clients
 * @param requestBytes      bytes of each request's payload
 * @param status            {@link #OK} or {@link #SKIPPED}
 * @param opsPerSecond      throughput at the clients
 * @param meanMs            mean latency at the clients, milliseconds
 * @param replicaCpuMsPerOp CPU per operation of one replica (the four replicas' total divided by 4), milliseconds
 * @param measured          when the run ended (UTC), empty when skipped
 * @param load1             the machine's one-minute load average when the run ended
 * @param note              why it was skipped, or what else to know (a retry)
 */
record PeerResult(int clients, int requestBytes, String status, double opsPerSecond, double meanMs,
                  double replicaCpuMsPerOp, String measured, double load1, String note) {

    static final String OK = "ok";
    static final String SKIPPED = "skipped";
    /** The peer's id in {@code --only} and in the console: the setups' ids name BFT-WS deployments. */
    static final String ID = "bftsmart";

    static PeerResult measured(PeerLine line, String when, double load1, String note) {
        return new PeerResult(line.clients(), line.requestBytes(), OK, line.opsPerSecond(), line.meanMs(),
                line.replicaCpuMsPerOp(), when, load1, note);
    }

    static PeerResult skipped(int clients, int requestBytes, String why) {
        return new PeerResult(clients, requestBytes, SKIPPED, Double.NaN, Double.NaN, Double.NaN, "", Load.now(),
                why);
    }

    boolean ok() {
        return OK.equals(status);
    }

    /** The row of {@code rows} at {@code clients}. */
    static Optional<PeerResult> at(List<PeerResult> rows, int clients) {
        return rows.stream().filter(r -> r.clients() == clients).findFirst();
    }
}
