package org.bftws.bench;

/** A command line the command cannot run: the message says what is wrong; the command prints it with its usage. */
final class UsageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
