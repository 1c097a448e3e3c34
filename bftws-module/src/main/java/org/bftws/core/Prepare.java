package org.bftws.core;

/** A backup accepted the pre-prepare for ({@code view}, {@code seq}, {@code digest}) (phase 2 of 3). */
public record Prepare(int view, long seq, Digest digest, int sender) implements Message {

    @Override
    public boolean transferable() {
        return true;
    }

    @Override
    public String toString() {
        return "Prepare(v" + view + " n" + seq + " " + digest + " from " + sender + ")";
    }
}
