package org.bftws.core;

/** The sender is behind: it asks for a stable checkpoint at {@code seq} or later, with its proof. */
public record FetchState(long seq, int sender) implements Message {
}
