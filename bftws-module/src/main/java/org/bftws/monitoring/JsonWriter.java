package org.bftws.monitoring;

import java.util.Map;

/**
 * A small JSON (RFC 8259) writer for the status page: objects, strings, whole numbers, finite decimals, booleans
 * and null. No JSON library is on an Axis2 server's classpath (Axis2's JSON support is a separate module), and the
 * page needs only this much. Names and values are escaped: quotes, backslashes, every control character, and
 * U+2028/U+2029 (valid JSON, but not valid in JavaScript source where a page might be pasted).
 */
final class JsonWriter {

    private final StringBuilder out = new StringBuilder();
    /** Whether the innermost open object already has a member (the next one needs a comma). */
    private boolean hasMember;

    JsonWriter beginObject() {
        out.append('{');
        hasMember = false;
        return this;
    }

    JsonWriter endObject() {
        out.append('}');
        hasMember = true;
        return this;
    }

    /** Starts member {@code name} whose value is an object. */
    JsonWriter beginObject(String name) {
        name(name);
        return beginObject();
    }

    JsonWriter member(String name, String value) {
        name(name);
        if (value == null) {
            out.append("null");
        } else {
            string(value);
        }
        return this;
    }

    JsonWriter member(String name, long value) {
        name(name);
        out.append(value);
        return this;
    }

    /** A decimal; NaN and the infinities, which JSON cannot write, become null. */
    JsonWriter member(String name, double value) {
        name(name);
        out.append(Double.isFinite(value) ? Double.toString(value) : "null");
        return this;
    }

    JsonWriter member(String name, boolean value) {
        name(name);
        out.append(value);
        return this;
    }

    /** Member {@code name} as an object of {@code values}' entries, in the map's order. */
    JsonWriter member(String name, Map<String, Long> values) {
        beginObject(name);
        values.forEach(this::member);
        return endObject();
    }

    /** Member {@code name} with the value null. */
    JsonWriter nullMember(String name) {
        name(name);
        out.append("null");
        return this;
    }

    private void name(String name) {
        if (hasMember) {
            out.append(',');
        }
        string(name);
        out.append(':');
        hasMember = true;
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
