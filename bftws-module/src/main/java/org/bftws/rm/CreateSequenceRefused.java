package org.bftws.rm;

/** The destination refuses a CreateSequence (wsrm:CreateSequenceRefused); the message says why. */
public final class CreateSequenceRefused extends Exception {
    private static final long serialVersionUID = 1L;

    public CreateSequenceRefused(String reason) {
        super(reason);
    }
}
