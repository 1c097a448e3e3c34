package org.bftws.config;

/** What one node of a group does. */
public enum NodeRole {
    /** Orders requests and executes them (Configuration I, and 2f+1 nodes of II). */
    AGREE_EXECUTE,
    /** Orders requests only (f nodes of Configuration II, all agreement nodes of III). */
    AGREE,
    /** Executes what agreement nodes committed (execution nodes of Configuration III). */
    EXECUTE;

    public boolean orders() { return this != EXECUTE; }

    public boolean executes() { return this != AGREE; }
}
