package org.bftws.channels.tcp;

import java.io.IOException;
import java.net.Socket;
import javax.net.ssl.SSLSocket;

/**
 * TLS under the binary channel (replicas.xml's {@code <tls>}): every connection is secured before the channel's own
 * handshake, both ends presenting their deployment certificate, and the peer must be the node replicas.xml puts at
 * that id. With it frames carry no HMAC of their own: TLS's record protection authenticates every byte between the
 * two authenticated ends (docs/wire.md, section 8).
 */
public interface ChannelTls {

    /** {@code plain}, connected, secured with its TLS handshake done; as the client when {@code dialling}. */
    SSLSocket secure(Socket plain, boolean dialling) throws IOException;

    /** Why the peer of {@code s} is not node {@code peer} (its certificate names another party), or null if it is. */
    String notNode(SSLSocket s, int peer);
}
