package org.bftws.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The results page ({@code docs/benchmarks.md}): headline and targets, ratios, plots, every point, and the method.
 * It is written whole from the results, except the text between {@value #BEGIN} and {@value #END}, which a person
 * writes (where the time goes, profiles) and which is carried over from the page being replaced.
 */
final class BenchPage {

    static final String BEGIN = "<!-- analysis:begin (hand-written; kept when ./bftws bench rewrites this page) -->";
    static final String END = "<!-- analysis:end -->";

    private BenchPage() {
    }

    static void write(Path page, List<PointResult> results, RunInfo info, Path csv, List<Path> plots, Targets targets)
            throws IOException {
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
