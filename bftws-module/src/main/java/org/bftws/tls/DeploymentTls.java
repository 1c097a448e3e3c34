package org.bftws.tls;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CRL;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

import org.bftws.config.TlsConfig;
import org.bftws.security.DeploymentCa;
import org.bftws.security.PartyKeystore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One party's TLS: it presents its keygen certificate and trusts a peer's certificate only when the deployment CA
 * issued it, it is a party certificate (never a proof key's), it is valid now and the CA's revocation list (if
 * configured) does not name it. Which party the peer must be is each link's own check ({@link #peerName}): the
 * replica channel expects the node replicas.xml puts at that address. JSSE's own trust manager is not used: its
 * refusals ("PKIX path building failed") do not say which party and why, which an operator needs in one line.
 */
public final class DeploymentTls {
    private static final Logger LOG = LoggerFactory.getLogger(DeploymentTls.class);

    private final TlsConfig config;
    private final String party;
    private final X509Certificate ownCertificate;
    private final X509Certificate ca;
    private final X509CRL crl;
    private final SSLContext context;
    private final javax.net.ssl.KeyManager[] keyManagers;
    private final Clock clock;
    private final AtomicLong handshakes = new AtomicLong();
    private final AtomicLong refusals = new AtomicLong();

    private DeploymentTls(TlsConfig config, PartyKeystore keys, X509Certificate ca, Clock clock) {
        this.config = config;
        this.party = keys.name();
        this.ownCertificate = keys.certificate();
        this.ca = ca;
        this.clock = clock;
        this.crl = config.crl() == null ? null : readCrl(config.crl(), ca);
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] none = new char[0];
            store.setKeyEntry(party, keys.privateKey(), none,
                    keys.chain().toArray(new java.security.cert.Certificate[0]));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, none);
            keyManagers = kmf.getKeyManagers();
            context = SSLContext.getInstance("TLS");
            context.init(keyManagers, new TrustManager[] {new CaOnly()}, null);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot set up TLS for " + party + ": " + e.getMessage(), e);
        }
    }

    /** {@code keys}' party under {@code config}, trusting what {@code ca} issued. */
    public static DeploymentTls of(TlsConfig config, PartyKeystore keys, X509Certificate ca) {
        return new DeploymentTls(config, keys, ca, Clock.systemUTC());
    }

    /** As {@link #of}, judging validity at {@code clock}'s time (tests of expiry). */
    static DeploymentTls at(TlsConfig config, PartyKeystore keys, X509Certificate ca, Clock clock) {
        return new DeploymentTls(config, keys, ca, clock);
    }

    public SSLContext context() {
        return context;
    }

    /**
     * A context presenting this party's certificate but trusting what {@code peers} trusts: for a server whose
     * clients are no parties of the deployment (a gateway's callers, with a CA the operator names).
     */
    public SSLContext contextTrusting(TrustManager peers) {
        try {
            SSLContext c = SSLContext.getInstance("TLS");
            c.init(keyManagers, new TrustManager[] {peers}, null);
            return c;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS for " + party + ": " + e.getMessage(), e);
        }
    }

    /**
     * The configured versions and suites; {@code needClientAuth} on a server side that requires certificates. Without
     * configured suites, JSSE's defaults with each AES-128-GCM suite ahead of its AES-256-GCM sibling (the server
     * picks in its own order): 10 AES rounds instead of 14 on every record, and 128-bit keys are what the peer's
     * replica links and TLS 1.3's mandatory suite use.
     */
    public SSLParameters parameters(boolean needClientAuth) {
        SSLParameters p = context.getDefaultSSLParameters();
        p.setProtocols(config.protocols().toArray(String[]::new));
        p.setCipherSuites(config.cipherSuites().isEmpty() ? aes128First(p.getCipherSuites())
                : config.cipherSuites().toArray(String[]::new));
        p.setUseCipherSuitesOrder(true);
        p.setNeedClientAuth(needClientAuth);
        return p;
    }

    /** {@code suites} in their order, except that each AES-128-GCM suite comes just before its AES-256-GCM sibling. */
    static String[] aes128First(String[] suites) {
        List<String> all = List.of(suites);
        List<String> ordered = new ArrayList<>();
        for (String s : suites) {
            String sibling = s.replace("AES_256_GCM_SHA384", "AES_128_GCM_SHA256");
            if (!sibling.equals(s) && all.contains(sibling) && !ordered.contains(sibling)) {
                ordered.add(sibling);
            }
            if (!ordered.contains(s)) {
                ordered.add(s);
            }
        }
        return ordered.toArray(String[]::new);
    }

    /**
     * {@code plain}, connected, secured and its handshake done: as the client when {@code client}, else as a server
     * requiring the peer's certificate. IOException (an {@link javax.net.ssl.SSLException} for a refused
     * certificate or a peer that does not speak TLS) when the handshake fails; the caller closes {@code plain}.
     */
    public SSLSocket secure(Socket plain, boolean client) throws IOException {
        SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket(plain,
                plain.getInetAddress().getHostAddress(), plain.getPort(), true);
        s.setUseClientMode(client);
        s.setSSLParameters(parameters(!client));
        s.startHandshake();
        handshakes.incrementAndGet();
        return s;
    }

    /**
     * {@code plain}, just accepted by an HTTPS server, secured as the server side and its handshake done, client
     * certificates required as {@code <tls clientCertificates>} says (else asked for: one given is checked). The handshake waits at most
     * {@code timeoutMillis} for the client. IOException (an {@link javax.net.ssl.SSLException} for a refused
     * certificate or a client that does not speak TLS, such as a plaintext HTTP request) when it fails; the caller
     * closes {@code plain}.
     */
    public SSLSocket accept(Socket plain, int timeoutMillis) throws IOException {
        SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket(plain,
                plain.getInetAddress().getHostAddress(), plain.getPort(), true);
        s.setUseClientMode(false);
        SSLParameters p = parameters(config.clientCertificates());
        if (!config.clientCertificates()) {
            p.setWantClientAuth(true); // asked for, so that the status page can tell who reads it; checked if given
        }
        s.setSSLParameters(p);
        int before = plain.getSoTimeout();
        s.setSoTimeout(timeoutMillis);
        s.startHandshake();
        s.setSoTimeout(before);
        handshakes.incrementAndGet();
        return s;
    }

    /**
     * Counts and logs, as a refused certificate is, a peer whose certificate the deployment CA issued but which is not
     * the party that link expects ({@code problem}: one line naming both); {@code where} is its address.
     */
    public void refused(Object where, String problem) {
        long n = refusals.incrementAndGet();
        LOG.warn("TLS: {} refused a server ({}): {} [{} refused so far]", party, where, problem, n);
    }

    /** An engine for a server side that requires client certificates when {@code needClientAuth}. */
    public SSLEngine serverEngine(boolean needClientAuth) {
        SSLEngine e = context.createSSLEngine();
        e.setUseClientMode(false);
        e.setSSLParameters(parameters(needClientAuth));
        return e;
    }

    /** The party the peer of {@code session} authenticated as (its certificate's common name), or null if none. */
    public static String peerName(SSLSession session) {
        try {
            return session.getPeerCertificates()[0] instanceof X509Certificate x ? DeploymentCa.partyName(x) : null;
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
    }

    /** This party's own certificate (its expiry date is what operators watch). */
    public X509Certificate ownCertificate() {
        return ownCertificate;
    }

    public X509Certificate caCertificate() {
        return ca;
    }

    /** Handshakes completed through {@link #secure}. */
    public long handshakes() {
        return handshakes.get();
    }

    /** A handshake a server completed outside {@link #secure} (an HTTPS connector), counted with the others. */
    public void handshakeCompleted() {
        handshakes.incrementAndGet();
    }

    /** Peer certificates refused. */
    public long refusals() {
        return refusals.get();
    }

    public TlsConfig config() {
        return config;
    }

    private static X509CRL readCrl(Path file, X509Certificate ca) {
        try (InputStream in = Files.newInputStream(file)) {
            CRL crl = CertificateFactory.getInstance("X.509").generateCRL(in);
            if (!(crl instanceof X509CRL x)) {
                throw new IllegalStateException(file + " is no X.509 revocation list");
            }
            x.verify(ca.getPublicKey());
            return x;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("the revocation list " + file + " cannot be used (it must be the "
                    + "deployment CA's, DER or PEM): " + e.getMessage(), e);
        }
    }

    /** Why {@code chain}'s party is refused, in one line, or null when it is trusted. */
    String problem(X509Certificate[] chain) {
        if (chain == null || chain.length == 0) {
            return "the peer presented no certificate";
        }
        X509Certificate leaf = chain[0];
        Instant now = clock.instant();
        String problem = DeploymentCa.partyCertificateProblem(ca, leaf, now).orElse(null);
        if (problem == null && crl != null && crl.isRevoked(leaf)) {
            problem = "the certificate of " + leaf.getSubjectX500Principal().getName() + " is revoked (serial "
                    + leaf.getSerialNumber() + " is on " + config.crl().getFileName() + ")";
        }
        return problem;
    }

    /** Trusts exactly the certificates {@link #problem} finds nothing wrong with; logs and counts the others. */
    private final class CaOnly extends X509ExtendedTrustManager {
        private void check(X509Certificate[] chain, String side, Object where) throws CertificateException {
            String problem = problem(chain);
            if (problem != null) {
                long n = refusals.incrementAndGet();
                LOG.warn("TLS: {} refused {} ({}): {} [{} refused so far]", party, side, where, problem, n);
                throw new CertificateException(problem);
            }
        }

        private static Object where(Socket s) {
            return s == null ? "?" : s.getRemoteSocketAddress();
        }

        private static Object where(SSLEngine e) {
            return e == null ? "?" : e.getPeerHost() + ":" + e.getPeerPort();
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            check(chain, "a client", where(socket));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            check(chain, "a server", where(socket));
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            check(chain, "a client", where(engine));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            check(chain, "a server", where(engine));
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain, "a client", "?");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain, "a server", "?");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[] {ca};
        }
    }

    @Override
    public String toString() {
        return "TLS " + String.join("/", config.protocols()) + " as " + party;
    }

    /** For messages: the versions. */
    List<String> protocols() {
        return config.protocols();
    }
}
