package org.bftws.server.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which callers a gateway serving HTTPS accepts when the operator names a CA ({@code --caller-ca FILE}): those whose
 * certificate a CA of that file issued (PKIX path validation, as JSSE does it), valid now. Callers are no parties of the
 * deployment, so this is not the deployment's trust: it is the operator's. A refused caller is logged in one line
 * naming its certificate and why (expired, not yet valid, another CA) and counted.
 */
final class CallerCertificates extends X509ExtendedTrustManager {
    private static final Logger LOG = LoggerFactory.getLogger(CallerCertificates.class);

    private final Path file;
    private final X509Certificate[] authorities;
    private final X509ExtendedTrustManager pkix;
    private final AtomicLong refusals = new AtomicLong();

    private CallerCertificates(Path file, X509Certificate[] authorities, X509ExtendedTrustManager pkix) {
        this.file = file;
        this.authorities = authorities;
        this.pkix = pkix;
    }

    /** The CA certificates in {@code file} (PEM or DER, one or more); IllegalArgumentException saying what is wrong. */
    static CallerCertificates read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("--caller-ca " + file + " does not exist");
        }
        List<X509Certificate> cas = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                if (c instanceof X509Certificate x) {
                    cas.add(x);
                }
            }
        } catch (IOException | CertificateException e) {
            throw new IllegalArgumentException("--caller-ca " + file + " is no X.509 certificate file (PEM or DER): "
                    + e.getMessage(), e);
        }
        if (cas.isEmpty()) {
            throw new IllegalArgumentException("--caller-ca " + file + " holds no certificate");
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < cas.size(); i++) {
                store.setCertificateEntry("ca" + i, cas.get(i));
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
            tmf.init(store);
            for (TrustManager tm : tmf.getTrustManagers()) {
                if (tm instanceof X509ExtendedTrustManager x) {
                    return new CallerCertificates(file, cas.toArray(X509Certificate[]::new), x);
                }
            }
            throw new IllegalStateException("this Java runtime has no PKIX trust manager");
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("--caller-ca " + file + " cannot be used: " + e.getMessage(), e);
        }
    }

    /** Callers refused so far. */
    long refusals() {
        return refusals.get();
    }

    private interface Check {
        void run() throws CertificateException;
    }

    private void check(X509Certificate[] chain, Object where, Check pkixCheck) throws CertificateException {
        String problem = null;
        if (chain == null || chain.length == 0) {
            problem = "the caller presented no certificate";
        } else {
            X509Certificate leaf = chain[0];
            String who = "the certificate of caller " + leaf.getSubjectX500Principal().getName();
            try {
                leaf.checkValidity();
                pkixCheck.run();
            } catch (CertificateExpiredException e) {
                problem = who + " expired on " + leaf.getNotAfter().toInstant();
            } catch (CertificateNotYetValidException e) {
                problem = who + " is not valid before " + leaf.getNotBefore().toInstant();
            } catch (CertificateException e) {
                problem = who + " (issued by " + leaf.getIssuerX500Principal().getName() + ") is not issued by a CA"
                        + " of --caller-ca " + file.getFileName();
            }
        }
        if (problem != null) {
            long n = refusals.incrementAndGet();
            LOG.warn("gateway: refused a caller ({}): {} [{} refused so far]", where, problem, n);
            throw new CertificateException(problem);
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        check(chain, socket == null ? "?" : socket.getRemoteSocketAddress(),
                () -> pkix.checkClientTrusted(chain, authType, socket));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        check(chain, engine == null ? "?" : engine.getPeerHost() + ":" + engine.getPeerPort(),
                () -> pkix.checkClientTrusted(chain, authType, engine));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain, "?", () -> pkix.checkClientTrusted(chain, authType));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        throw new CertificateException("the gateway's caller side trusts no servers");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        throw new CertificateException("the gateway's caller side trusts no servers");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("the gateway's caller side trusts no servers");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return authorities.clone();
    }
}
