package org.bftws.voting;

import java.net.URI;

/**
 * One node's HTTP response to a multicast message.
 *
 * @param node        which node answered
 * @param status      HTTP status
 * @param contentType the response's Content-Type, null for an empty response
 * @param body        the response bytes (empty for 202 Accepted)
 */
public record NodeReply(URI node, int status, String contentType, byte[] body) {

    public boolean isEmpty() {
        return body.length == 0;
    }
}
