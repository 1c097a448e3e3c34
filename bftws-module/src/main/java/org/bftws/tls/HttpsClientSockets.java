package org.bftws.tls;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.function.Supplier;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSocket;

import org.apache.http.HttpHost;
import org.apache.http.conn.socket.LayeredConnectionSocketFactory;
import org.apache.http.protocol.HttpContext;

/**
 * How a party's HTTP client (HttpClient 4, the module's MulticastSender) opens an {@code https://} connection: TLS
 * with the party's {@link DeploymentTls} (it presents its certificate; the server's must be the deployment CA's), and
 * instead of hostname verification the check that the server is the party replicas.xml puts at that address
 * ({@link HttpsPeers}). A refused server is counted with the party's TLS refusals and the connection fails with an
 * {@link javax.net.ssl.SSLException} whose message is the one-line reason. One handshake per connection: the pool keeps
 * connections alive.
 */
public final class HttpsClientSockets implements LayeredConnectionSocketFactory {
    private final Supplier<DeploymentTls> tls;
    private final Supplier<HttpsPeers> peers;
    private final int handshakeMillis;

    /**
     * @param tls             the party's TLS, asked for at the first connection (IllegalStateException saying why
     *                        there is none)
     * @param peers           the parties at the deployment's https addresses, asked for at the first connection
     * @param handshakeMillis how long a server may take to complete the handshake: a node's server handshakes when a
     *                        worker takes the connection, so a busy node's handshake waits as its requests do (the
     *                        client's attempt timeout, not the connect timeout)
     */
    public HttpsClientSockets(Supplier<DeploymentTls> tls, Supplier<HttpsPeers> peers, int handshakeMillis) {
        this.tls = tls;
        this.peers = peers;
        this.handshakeMillis = handshakeMillis;
    }

    @Override
    public Socket createSocket(HttpContext context) {
        return new Socket();
    }

    @Override
    public Socket connectSocket(int connectTimeout, Socket socket, HttpHost host, InetSocketAddress remoteAddress,
                                InetSocketAddress localAddress, HttpContext context) throws IOException {
        Socket s = socket != null ? socket : createSocket(context);
        try {
            if (localAddress != null) {
                s.bind(localAddress);
            }
            s.connect(remoteAddress, Math.max(connectTimeout, 0));
            return handshake(s, host.getHostName(), remoteAddress.getPort());
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    @Override
    public Socket createLayeredSocket(Socket socket, String target, int port, HttpContext context) throws IOException {
        return handshake(socket, target, port);
    }

    private Socket handshake(Socket plain, String host, int port) throws IOException {
        DeploymentTls party;
        try {
            party = tls.get();
        } catch (IllegalStateException e) {
            throw new javax.net.ssl.SSLException("cannot call https://" + host + ":" + port + ": " + e.getMessage(), e);
        }
        SSLSocket s = (SSLSocket) party.context().getSocketFactory().createSocket(plain, host, port, true);
        s.setUseClientMode(true);
        s.setSSLParameters(party.parameters(false));
        int before = s.getSoTimeout();
        s.setSoTimeout(handshakeMillis);
        s.startHandshake();
        s.setSoTimeout(before);
        party.handshakeCompleted();
        String problem = peers.get().problem(host, port, DeploymentTls.peerName(s.getSession()));
        if (problem != null) {
            party.refused(s.getRemoteSocketAddress(), problem);
            s.close();
            throw new SSLPeerUnverifiedException(problem);
        }
        return s;
    }
}
