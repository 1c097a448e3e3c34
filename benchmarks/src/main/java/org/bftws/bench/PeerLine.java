package org.bftws.bench;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one line BFT-SMaRt's runner ({@code ../shared/peers/bftsmart/run.py}) prints when it measured:
 * {@code bftsmart: C clients, S-byte requests, T ops/s, mean X ms, replica cpu Y ms/op}. The runner prints other
 * lines that start with {@code bftsmart:} when it fails ({@code bftsmart: replicas did not start}), and Python
 * prints its traceback when it breaks; neither is a result.
 *
 * @param clients          closed-loop clients
 * @param requestBytes     bytes of each request's payload
 * @param opsPerSecond     clients / mean latency (Little's law, closed loop without think time)
 * @param meanMs           mean latency at the clients, milliseconds
 * @param replicaCpuMsPerOp the four replicas' CPU per operation divided by 4, milliseconds (NaN when the runner had
 *                         no window to measure it in: it prints {@code nan})
 */
record PeerLine(int clients, int requestBytes, double opsPerSecond, double meanMs, double replicaCpuMsPerOp) {

    private static final String DECIMAL = "[0-9]+(?:\\.[0-9]+)?";
    private static final Pattern LINE = Pattern.compile("bftsmart: ([0-9]+) clients?, ([0-9]+)-byte requests, ("
            + DECIMAL + ") ops/s, mean (" + DECIMAL + ") ms, replica cpu (" + DECIMAL + "|nan) ms/op");

    /** The figures of {@code line}, or empty when it is not the runner's result line. */
    static Optional<PeerLine> parse(String line) {
        Matcher m = LINE.matcher(line.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            String cpu = m.group(5);
            return Optional.of(new PeerLine(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4)),
                    cpu.equals("nan") ? Double.NaN : Double.parseDouble(cpu)));
        } catch (NumberFormatException tooLong) {
            return Optional.empty();
        }
    }

    /** The last result line of the runner's output, if any. */
    static Optional<PeerLine> find(List<String> output) {
        for (int i = output.size() - 1; i >= 0; i--) {
            Optional<PeerLine> line = parse(output.get(i));
            if (line.isPresent()) {
                return line;
            }
        }
        return Optional.empty();
    }

    /** Why output without a result line has none: its last non-blank line (a traceback's ends with the error). */
    static String failure(List<String> output) {
        for (int i = output.size() - 1; i >= 0; i--) {
            String line = printable(output.get(i)).strip();
            if (!line.isEmpty()) {
                return line.length() > 300 ? line.substring(0, 300) + "..." : line;
            }
        }
        return "no output";
    }

    /** Terminal escape sequences written as text (Maven's colour codes in a path are why a run failed). */
    static String printable(String s) {
        return s.replace("\u001b", "\\x1b").replaceAll("\\p{Cntrl}", " ");
    }

    String describe() {
        return String.format(Locale.ROOT, "%.0f ops/s, mean %.2f ms, replica cpu %s ms/op", opsPerSecond, meanMs,
                Double.isNaN(replicaCpuMsPerOp) ? "n/a" : String.format(Locale.ROOT, "%.3f", replicaCpuMsPerOp));
    }
}
