package org.bftws.core;

/** The sender has the batch prepared: pre-prepare plus 2f matching prepares (phase 3 of 3). */
public record Commit(int view, long seq, Digest digest, int sender) implements Message {

    @Override
    public String toString() {
        return "Commit(v" + view + " n" + seq + " " + digest + " from " + sender + ")";
    }
}
