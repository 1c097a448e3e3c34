package org.bftws.config;

import java.time.Duration;

/**
 * What a group's {@code <operation>} element says about one operation of the replicated service.
 *
 * @param name        the Axis2 operation name (what a replica dispatches the request to)
 * @param readOnly    the operation changes no state: a client may send it unordered (docs/protocol.md, "Read-only
 *                    requests"); a replica executes such a request at once, and refuses the read-only marker on any
 *                    operation not declared so
 * @param action      the {@code wsa:Action} a client recognises the operation by; null: any action whose last
 *                    segment (after the last '/' or ':') is {@code name}
 * @param readTimeout how long a client waits for 2f+1 identical replies to a read before it sends it ordered
 */
public record OperationConfig(String name, boolean readOnly, String action, Duration readTimeout) {

    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(1);

    /** Whether a request with {@code wsaAction} calls this operation, as far as a client can tell. */
    public boolean matchesAction(String wsaAction) {
        if (wsaAction == null) {
            return false;
        }
        if (action != null) {
            return action.equals(wsaAction);
        }
        int cut = Math.max(wsaAction.lastIndexOf('/'), wsaAction.lastIndexOf(':'));
        return wsaAction.substring(cut + 1).equals(name);
    }
}
