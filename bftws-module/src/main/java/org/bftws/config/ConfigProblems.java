package org.bftws.config;

import java.util.ArrayList;
import java.util.List;

/** Collects semantic problems of one file, each tied to the element (and so the line) it is about. */
final class ConfigProblems {
    private final String fileName;
    private final List<String> problems = new ArrayList<>();

    ConfigProblems(String fileName) {
        this.fileName = fileName;
    }

    void add(XmlElement element, String problem) {
        problems.add(fileName + ":" + element.line() + ": " + element.describe() + " " + problem);
    }

    boolean isEmpty() {
        return problems.isEmpty();
    }

    void throwIfAny() {
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }
}
