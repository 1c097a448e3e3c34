package org.bftws.tls;

import java.io.IOException;
import java.net.Socket;
import java.util.Map;
import javax.net.ssl.SSLSocket;

import org.bftws.channels.tcp.ChannelTls;

/** The binary replica channel's TLS: this node's deployment TLS, and which node name each core id must present. */
public final class ReplicaChannelTls implements ChannelTls {
    private final DeploymentTls tls;
    private final Map<Integer, String> names;

    /** @param names every node's name (its certificate's common name) by core id */
    public ReplicaChannelTls(DeploymentTls tls, Map<Integer, String> names) {
        this.tls = tls;
        this.names = Map.copyOf(names);
    }

    @Override
    public SSLSocket secure(Socket plain, boolean dialling) throws IOException {
        return tls.secure(plain, dialling);
    }

    @Override
    public String notNode(SSLSocket s, int peer) {
        String expected = names.get(peer);
        String presented = DeploymentTls.peerName(s.getSession());
        if (expected != null && expected.equalsIgnoreCase(presented)) {
            return null;
        }
        return "node " + peer + " (" + expected + ") at " + s.getRemoteSocketAddress() + " presented the certificate of "
                + (presented == null ? "nobody" : presented);
    }
}
