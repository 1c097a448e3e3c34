package org.bftws.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a suite run was made, for the method section of the page: machine, JVMs and their flags, the plan's numbers,
 * when it ran and how loaded the machine was. Kept as {@code run.txt} ({@code key: value} lines) next to the CSV, so
 * {@code --report-only} can write the same page later.
 */
final class RunInfo {

    static final String FILE = "run.txt";
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final Map<String, String> entries;

    private RunInfo(Map<String, String> entries) {
        this.entries = entries;
    }

    /** What can be known when the run starts. */
    static RunInfo begin(BenchOptions o, BenchPlan plan) {
        Map<String, String> e = new LinkedHashMap<>();
        e.put("plan", o.quick() ? "quick" : "full");
        e.put("started", UTC.format(Instant.now()));
        e.put("cpu", cpuModel());
        e.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        e.put("memory", memory());
        e.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        e.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        e.put("client jvm flags", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        String extra = System.getenv("BFTWS_REPLICA_JAVA_OPTS");
        e.put("node jvm flags", "-Xmx256m" + (extra == null || extra.isBlank() ? "" : " " + extra.trim()));
        e.put("samples", Integer.toString(o.samples()));
        e.put("point warm-up", o.warmup() + " requests, at most " + o.warmupCap().toSeconds() + " s");
        e.put("setup warm-up", o.setupWarmup() + " requests, at most " + o.setupWarmupCap().toSeconds() + " s");
        e.put("measure cap", o.measureCap().toSeconds() + " s");
        e.put("points", Integer.toString(plan.points()));
        e.put("load at start", String.format(Locale.ROOT, "%.2f", Load.now()));
        return new RunInfo(e);
    }

    void end(Duration took) {
        entries.put("ended", UTC.format(Instant.now()));
        entries.put("duration", String.format(Locale.ROOT, "%d min %02d s", took.toMinutes(), took.toSecondsPart()));
        entries.put("load at end", String.format(Locale.ROOT, "%.2f", Load.now()));
    }

    boolean has(String key) {
        return entries.containsKey(key);
    }

    /** Adds to an entry (entries joined with "; "). */
    void add(String key, String value) {
        entries.merge(key, value, (a, b) -> a + "; " + b);
    }

    /** Sets an entry, replacing what it held. */
    void put(String key, String value) {
        entries.put(key, value);
    }

    String get(String key) {
        return entries.getOrDefault(key, "unknown");
    }

    void write(Path dir) throws IOException {
        StringBuilder s = new StringBuilder();
        entries.forEach((k, v) -> s.append(k).append(": ").append(v.replace('\n', ' ')).append('\n'));
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(FILE), s, StandardCharsets.UTF_8);
    }

    static RunInfo read(Path dir) throws IOException {
        Map<String, String> e = new LinkedHashMap<>();
        Path file = dir.resolve(FILE);
        if (Files.isRegularFile(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                int colon = line.indexOf(": ");
                if (colon > 0) {
                    e.put(line.substring(0, colon), line.substring(colon + 2));
                }
            }
        }
        return new RunInfo(e);
    }

    private static String cpuModel() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
            return lines.stream().filter(l -> l.startsWith("model name")).findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("unknown");
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static String memory() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                    .findFirst().map(l -> {
                        long kb = Long.parseLong(l.replaceAll("[^0-9]", ""));
                        return String.format(Locale.ROOT, "%.1f GiB", kb / 1024.0 / 1024.0);
                    }).orElse("unknown");
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
