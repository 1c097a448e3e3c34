package org.bftws.server;

/** A command line the command cannot run: the message says what is wrong; the command prints it with its usage. */
public final class UsageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
