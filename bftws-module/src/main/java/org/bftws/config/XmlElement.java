package org.bftws.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A read-only element of a validated configuration file that remembers the line it started on, so that every
 * semantic error can point at the element it is about.
 */
final class XmlElement {
    private final String name;
    private final Map<String, String> attributes;
    private final int line;
    private final List<XmlElement> children = new ArrayList<>();

    XmlElement(String name, Map<String, String> attributes, int line) {
        this.name = name;
        this.attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
        this.line = line;
    }

    String name() { return name; }

    int line() { return line; }

    Optional<String> attribute(String attribute) {
        return Optional.ofNullable(attributes.get(attribute));
    }

    /** The attribute's value; only for attributes the schema requires, so validation guarantees it is there. */
    String required(String attribute) {
        String value = attributes.get(attribute);
        if (value == null) {
            throw new IllegalStateException(describe() + " lacks " + attribute + " although the schema requires it");
        }
        return value;
    }

    List<XmlElement> children(String childName) {
        return children.stream().filter(c -> c.name.equals(childName)).toList();
    }

    Optional<XmlElement> child(String childName) {
        return children.stream().filter(c -> c.name.equals(childName)).findFirst();
    }

    void add(XmlElement child) {
        children.add(child);
    }

    /** The element as an operator would search for it in the file, e.g. {@code <node name="replica2">}. */
    String describe() {
        return describe(name, attributes);
    }

    static String describe(String name, Map<String, String> attributes) {
        for (String key : List.of("name", "service", "profile", "truststore")) {
            String value = attributes.get(key);
            if (value != null) {
                return "<" + name + " " + key + "=\"" + value + "\">";
            }
        }
        return "<" + name + ">";
    }
}
