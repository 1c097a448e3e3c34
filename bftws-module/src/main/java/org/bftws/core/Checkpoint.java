package org.bftws.core;

/** An executor's state after executing every sequence number up to {@code seq} has digest {@code state}. */
public record Checkpoint(long seq, Digest state, int sender) implements Message {

    @Override
    public boolean transferable() {
        return true;
    }

    @Override
    public String toString() {
        return "Checkpoint(n" + seq + " " + state + " from " + sender + ")";
    }
}
