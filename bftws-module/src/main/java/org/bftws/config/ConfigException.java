package org.bftws.config;

import java.util.List;

/**
 * replicas.xml is invalid. The message lists every problem found, one a line, each as
 * {@code replicas.xml:LINE: <element ...> problem}, so that an operator can fix them all in one go.
 */
public class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final List<String> problems;

    public ConfigException(List<String> problems) {
        super(problems.size() == 1 ? problems.get(0)
                : problems.size() + " problems:\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    public ConfigException(String problem, Throwable cause) {
        super(problem, cause);
        this.problems = List.of(problem);
    }

    /** Each problem on its own, in file order for schema problems, then the semantic ones. */
    public List<String> problems() {
        return problems;
    }
}
