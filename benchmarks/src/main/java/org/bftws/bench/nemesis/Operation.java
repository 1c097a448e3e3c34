package org.bftws.bench.nemesis;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One operation of a nemesis history: a get, put or compare-and-set on one key of the key-value sample by one
 * process (a client thread until one of its calls ends unknown, when it goes on as a new process: a process's
 * operations never overlap), its invocation and completion (ns on the client JVM's clock), its outcome and its result.
 * One line of the history file, a JSON object: the form kvcheck (benchmarks/src/main/go/kvcheck) reads.
 *
 * @param process  the process, from 0
 * @param op       get, put or cas
 * @param key      the key
 * @param value    the value a put or cas writes (null for get)
 * @param expected the value a cas expects (null: it swaps only when the key has none)
 * @param call     when it was invoked
 * @param ret      when it completed (null for an unknown outcome: it may take effect at any later time)
 * @param outcome  what became of it
 * @param found    get: whether the key had a value; put: whether there was a previous one; cas: whether the key has
 *                 one now
 * @param result   get: the value; put: the previous value; cas: the value now (null without {@code found})
 * @param swapped  cas: whether it swapped
 */
public record Operation(int process, String op, String key, Long value, Long expected, long call, Long ret,
                        Outcome outcome, boolean found, Long result, boolean swapped) {

    /** ok: the group answered; failed: it certainly took no effect; unknown: it timed out. */
    public enum Outcome { OK, FAILED, UNKNOWN }

    public Operation {
        if (!op.equals("get") && !op.equals("put") && !op.equals("cas")) {
            throw new IllegalArgumentException("op must be get, put or cas, not " + op);
        }
        if (!op.equals("get") && value == null) {
            throw new IllegalArgumentException(op + " needs a value");
        }
        if (outcome == Outcome.OK && ret == null) {
            throw new IllegalArgumentException("an ok operation has a return time");
        }
    }

    /** Whether it writes (a put, or a cas that swapped or whose outcome is unknown). */
    public boolean mayWrite() {
        return op.equals("put") || op.equals("cas") && (outcome != Outcome.OK || swapped);
    }

    /** Its JSON line (no newline). */
    public String toJson() {
        StringBuilder b = new StringBuilder("{\"process\":").append(process).append(",\"op\":\"").append(op)
                .append("\",\"key\":\"").append(key.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
        if (value != null) {
            b.append(",\"value\":").append(value);
        }
        if (expected != null) {
            b.append(",\"expected\":").append(expected);
        }
        b.append(",\"call\":").append(call);
        if (ret != null) {
            b.append(",\"return\":").append(ret);
        }
        b.append(",\"outcome\":\"").append(outcome.name().toLowerCase(java.util.Locale.ROOT)).append('"');
        if (outcome == Outcome.OK) {
            switch (op) {
                case "get" -> {
                    b.append(",\"found\":").append(found);
                    if (found) {
                        b.append(",\"result\":").append(result);
                    }
                }
                case "put" -> {
                    if (found) {
                        b.append(",\"previous\":").append(result);
                    }
                }
                default -> {
                    b.append(",\"swapped\":").append(swapped);
                    if (found) {
                        b.append(",\"current\":").append(result);
                    }
                }
            }
        }
        return b.append('}').toString();
    }

    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\":(\"((?:[^\"\\\\]|\\\\.)*)\"|-?\\d+|true|false)");

    /** The operation of one line {@link #toJson} wrote; a clear error for anything else. */
    public static Operation parse(String line) {
        String s = line.trim();
        if (!s.startsWith("{") || !s.endsWith("}")) {
            throw new IllegalArgumentException("not a JSON object: " + line);
        }
        Map<String, String> f = new LinkedHashMap<>();
        Matcher m = FIELD.matcher(s);
        while (m.find()) {
            f.put(m.group(1), m.group(3) != null ? m.group(3).replace("\\\"", "\"").replace("\\\\", "\\")
                    : m.group(2));
        }
        try {
            String op = required(f, "op", line);
            Outcome outcome = Outcome.valueOf(required(f, "outcome", line).toUpperCase(java.util.Locale.ROOT));
            String resultField = switch (op) {
                case "get" -> "result";
                case "put" -> "previous";
                default -> "current";
            };
            Long result = number(f.get(resultField));
            boolean found = op.equals("get") ? Boolean.parseBoolean(f.get("found")) : result != null;
            return new Operation(Integer.parseInt(required(f, "process", line)), op, required(f, "key", line),
                    number(f.get("value")), number(f.get("expected")), Long.parseLong(required(f, "call", line)),
                    number(f.get("return")), outcome, found, result, Boolean.parseBoolean(f.get("swapped")));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a number field is not a number in: " + line, e);
        }
    }

    private static String required(Map<String, String> f, String name, String line) {
        String v = f.get(name);
        if (v == null) {
            throw new IllegalArgumentException("no " + name + " in: " + line);
        }
        return v;
    }

    private static Long number(String s) {
        return s == null ? null : Long.valueOf(s);
    }
}
