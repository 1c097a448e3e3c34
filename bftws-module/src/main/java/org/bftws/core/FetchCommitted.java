package org.bftws.core;

/** Configuration III: an execution node missed committed batches after {@code afterSeq} and asks for them again. */
public record FetchCommitted(long afterSeq, int sender) implements Message {
}
