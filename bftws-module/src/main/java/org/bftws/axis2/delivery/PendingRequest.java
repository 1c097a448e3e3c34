package org.bftws.axis2.delivery;

import java.util.ArrayList;
import java.util.List;

import org.apache.axis2.context.MessageContext;

/**
 * An application request accepted by the RM layer and waiting to be delivered to the service, with every HTTP
 * exchange waiting for its reply: the one it came on, and those of retransmitted copies that arrived meanwhile. In
 * BFT mode a request may have no exchange on this replica (its body came from another replica).
 */
public final class PendingRequest {

    private final String sequenceId;
    private final long messageNumber;
    private final MessageContext message;
    private final List<HttpExchange> exchanges = new ArrayList<>();
    private boolean closed;

    public PendingRequest(String sequenceId, long messageNumber, MessageContext message) {
        this.sequenceId = sequenceId;
        this.messageNumber = messageNumber;
        this.message = message;
    }

    public String sequenceId() {
        return sequenceId;
    }

    public long messageNumber() {
        return messageNumber;
    }

    /** The message to deliver: suspended in its in-flow, or built from bytes and never run through one. */
    public MessageContext message() {
        return message;
    }

    /** Adds a waiting exchange; false when the reply was already handed out (answer from the cache instead). */
    public synchronized boolean addExchange(HttpExchange exchange) {
        if (closed) {
            return false;
        }
        exchanges.add(exchange);
        return true;
    }

    public synchronized void removeExchange(HttpExchange exchange) {
        exchanges.remove(exchange);
    }

    /** Whether no exchange waits for this request any more (and none was answered with its reply yet). */
    public synchronized boolean abandoned() {
        return !closed && exchanges.isEmpty();
    }

    /** Closes the request to new exchanges and returns those waiting. */
    public synchronized List<HttpExchange> close() {
        closed = true;
        return new ArrayList<>(exchanges);
    }

    public String key() {
        return key(sequenceId, messageNumber);
    }

    public static String key(String sequenceId, long messageNumber) {
        return sequenceId + "#" + messageNumber;
    }

    @Override
    public String toString() {
        return "message " + messageNumber + " of " + sequenceId;
    }
}
