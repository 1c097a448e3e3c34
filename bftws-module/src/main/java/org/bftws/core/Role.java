package org.bftws.core;

/** What a node does in its group (the paper's Configurations I, II and III, section 3.3). */
public enum Role {
    /** Orders and executes: every node of Configuration I, 2f+1 nodes of Configuration II. */
    AGREE_EXECUTE,
    /** Orders only: f nodes of Configuration II, the 3f+1 agreement nodes of Configuration III. */
    AGREE,
    /** Executes batches that agreement nodes committed: the 2f+1 execution nodes of Configuration III. */
    EXECUTE;

    public boolean orders() {
        return this != EXECUTE;
    }

    public boolean executes() {
        return this != AGREE;
    }
}
