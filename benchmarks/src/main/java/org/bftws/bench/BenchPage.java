package org.bftws.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The results page ({@code docs/benchmarks.md}): headline and targets, BFT-SMaRt on this machine, ratios, plots,
 * every point, and the method.
 * It is written whole from the results, except the text between {@value #BEGIN} and {@value #END}, which a person
 * writes (where the time goes, profiles) and which is carried over from the page being replaced.
 */
final class BenchPage {

    static final String BEGIN = "<!-- analysis:begin (hand-written; kept when ./bftws bench rewrites this page) -->";
    static final String END = "<!-- analysis:end -->";

    private BenchPage() {
    }

    static void write(Path page, List<PointResult> results, List<PeerResult> peer, RunInfo info, Path csv,
                      List<Path> plots, Targets targets) throws IOException {
        String analysis = Files.isRegularFile(page) ? analysis(Files.readString(page, StandardCharsets.UTF_8)) : null;
        Path dir = page.toAbsolutePath().getParent();
        StringBuilder s = new StringBuilder();
        s.append("# Echo benchmark: BFT-WS against no replication\n\n")
                .append("<!-- written by ./bftws bench from ").append(rel(dir, csv))
                .append("; edit only between the analysis markers -->\n\n")
                .append("The echo benchmark of the BFT-WS paper (section 4.1) on this project's testbed: every node is")
                .append(" a JVM on one machine, talking over loopback. This page is written by `./bftws bench`")
                .append(" from the run's CSV (`").append(rel(dir, csv)).append("`); `./bftws bench --quick` writes a")
                .append(" small version under `.bftws/bench-quick/`. Run: ").append(info.get("plan")).append(", ")
                .append(info.get("started")).append(" to ").append(info.get("ended")).append(" (")
                .append(info.get("duration")).append(").\n\n")
                .append("## Headline and targets\n\nConfiguration I, `mac`, ").append(BenchPlan.HEADLINE_CLIENTS)
                .append(" clients, ").append(BenchPlan.HEADLINE_SIZE)
                .append(" elements per request, against one unreplicated node with the same security:\n\n```\n")
                .append(targets.finalLine()).append("\n```\n\n").append(ResultTables.targets(targets))
                .append(peerSection(results, peer, info))
                .append("\n## Where the time goes\n\n").append(BEGIN).append('\n')
                .append(analysis != null ? analysis : "(not written yet)\n").append(END).append("\n\n")
                .append("## Ratios: replicated against no replication with the same security\n")
                .append(ResultTables.ratios(results))
                .append("\n## Plots\n\n");
        for (Path plot : plots) {
            s.append("![").append(plot.getFileName().toString().replace(".png", "")).append("](")
                    .append(rel(dir, plot)).append(")\n\n");
        }
        s.append("## Every point\n\nLatency is measured at the clients over the successful samples; \"req/s at")
                .append(" clients\" counts successful requests per second of the measured window, \"req/s at")
                .append(" service\" the requests the (f+1)-th busiest executing node executed in that window.")
                .append(" CPU is seconds per 1,000 requests in the window; projected = 1 / the largest node CPU")
                .append(" per request. \"load\" is the machine's one-minute load average when the point ended.\n")
                .append(ResultTables.points(results))
                .append('\n').append(BenchMethod.text(info));
        Files.createDirectories(dir);
        Files.writeString(page, s, StandardCharsets.UTF_8);
    }

    /** BFT-SMaRt measured back to back with C-I mac, or why it was not. */
    static String peerSection(List<PointResult> results, List<PeerResult> peer, RunInfo info) {
        StringBuilder s = new StringBuilder("\n## BFT-SMaRt on this machine\n\n")
                .append("BFT-SMaRt (bft-smart/library 681cec8) is the Java BFT library a user would pick when SOAP is")
                .append(" not a requirement. The suite runs its own microbenchmark (`run.py` in the project's shared")
                .append(" folder: 4 replicas on loopback, f = 1, TLS between replicas and one ECDSA signature per")
                .append(" consensus, neither signature nor MAC on client requests and replies, closed-loop clients;")
                .append(" so `mac` does work the peer skips) on this machine, right after C-I `mac`'s points, and sets")
                .append(" it beside C-I `mac` at ").append(BenchPlan.HEADLINE_SIZE).append(" elements. ");
        if (peer.isEmpty()) {
            return s.append("Not measured: ").append(PeerComparison.NO_ROWS).append(".\n").toString();
        }
        if (peer.stream().noneMatch(PeerResult::ok)) {
            s.append("**Not measured in this run**: the rows below say why; the targets against BFT-SMaRt are not")
                    .append(" checked. ");
        }
        int bytes = peer.get(0).requestBytes();
        return s.append("Its requests carry ").append(bytes).append(" bytes, as many as the `<e:echo>` element of")
                .append(" our ").append(BenchPlan.HEADLINE_SIZE).append("-element request (what the application")
                .append(" hands over; the SOAP envelope and headers are BFT-WS's encoding, as BFT-SMaRt's headers")
                .append(" are its); its replies are run.py's fixed 100 bytes, ours echo the ").append(bytes)
                .append(" back. Its throughput is clients / mean latency of the measured half of each client's")
                .append(" operations; its CPU per request is its 4 replicas' CPU per operation divided by 4, ours")
                .append(" is the busiest replica's (the target says each replica). The method section says how it")
                .append(" ran.\n\n").append(ResultTables.peer(results, peer)).toString();
    }

    /** The hand-written text between the markers (with its line breaks), or null when the page has none. */
    static String analysis(String page) {
        int b = page.indexOf(BEGIN);
        int e = page.indexOf(END);
        if (b < 0 || e < b) {
            return null;
        }
        return page.substring(b + BEGIN.length(), e).replaceFirst("^\n", "");
    }

    static String rel(Path from, Path to) {
        return from.relativize(to.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }
}
