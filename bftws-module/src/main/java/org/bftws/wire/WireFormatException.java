package org.bftws.wire;

/**
 * A PBFT message on the wire is malformed, oversized or inconsistent. The message names the element (as a path from
 * the bundle, e.g. {@code pbft:Messages/pbft:ViewChange[2]/pbft:Certificate[1]/pbft:Prepare[1]}) and the problem.
 * Checked on purpose: every caller that decodes input from the network must decide what a refusal means there.
 */
public final class WireFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String element;
    private final String problem;

    public WireFormatException(String element, String problem) {
        super(element + ": " + problem);
        this.element = element;
        this.problem = problem;
    }

    /** Where the problem is: a path of element names with 1-based positions. */
    public String element() {
        return element;
    }

    /** What is wrong there. */
    public String problem() {
        return problem;
    }
}
