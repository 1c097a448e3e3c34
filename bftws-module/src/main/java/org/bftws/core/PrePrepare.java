package org.bftws.core;

/** The primary of {@code view} assigns sequence number {@code seq} to {@code batch} (phase 1 of 3). */
public record PrePrepare(int view, long seq, Batch batch, int sender) implements Message {

    public Digest digest() {
        return batch.digest();
    }

    @Override
    public boolean transferable() {
        return true;
    }

    @Override
    public String toString() {
        return "PrePrepare(v" + view + " n" + seq + " " + batch.digest() + " " + batch.size() + "req from " + sender + ")";
    }
}
