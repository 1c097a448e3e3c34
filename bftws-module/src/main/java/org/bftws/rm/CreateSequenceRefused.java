package org.bftws.rm;

/** The destination refuses a CreateSequence (wsrm:CreateSequenceRefused); the message says why. */
public final class CreateSequenceRefused extends Exception {
    private static final long serialVersionUID = 1L;

    /** The refusal is for one party holding its maximum of sequences, not the node holding its maximum. */
    private final boolean overPartyLimit;

    public CreateSequenceRefused(String reason) {
        this(reason, false);
    }

    public CreateSequenceRefused(String reason, boolean overPartyLimit) {
        super(reason);
        this.overPartyLimit = overPartyLimit;
    }

    public boolean overPartyLimit() {
        return overPartyLimit;
    }
}
