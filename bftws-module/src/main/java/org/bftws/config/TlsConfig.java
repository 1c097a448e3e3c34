package org.bftws.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLContext;

/**
 * replicas.xml's {@code <tls>}: every link of the deployment (the binary replica channel, HTTPS between clients,
 * replicas and gateways) runs TLS with these settings, each side presenting its party certificate from keygen and
 * trusting the deployment CA alone. Without the element every link is plain TCP or HTTP: readable and alterable by
 * anybody on the path (the paper's setup; docs/configuration.md says so).
 *
 * @param protocols          TLS versions allowed, in JSSE's names ({@code TLSv1.3}, {@code TLSv1.2})
 * @param cipherSuites       suites allowed, in JSSE's names; empty: JSSE's defaults for those versions
 * @param clientCertificates whether a client calling a replica over HTTPS must present its party certificate (the
 *                           replica channel always authenticates both ends)
 * @param crl                a certificate revocation list of the deployment CA, or null
 */
public record TlsConfig(List<String> protocols, List<String> cipherSuites, boolean clientCertificates, Path crl) {

    private static final Set<String> PROTOCOLS = Set.of("TLSv1.3", "TLSv1.2");

    public TlsConfig {
        protocols = List.copyOf(protocols);
        cipherSuites = List.copyOf(cipherSuites);
    }

    /** TLS 1.3 with JSSE's suites, client certificates required, no revocation list. */
    public static TlsConfig defaults() {
        return new TlsConfig(List.of("TLSv1.3"), List.of(), true, null);
    }

    static TlsConfig read(XmlElement tls, Path base, boolean keys, ConfigProblems problems) {
        if (tls == null) {
            return null;
        }
        if (!keys) {
            problems.add(tls, "needs the deployment's keys: TLS presents each party's certificate from keygen; add "
                    + "<keys truststore=... storePassword=...> before it");
        }
        List<String> protocols = words(tls.attribute("protocols").orElse("TLSv1.3"));
        for (String p : protocols) {
            if (!PROTOCOLS.contains(p)) {
                problems.add(tls, "names protocol " + p + "; allowed: TLSv1.3, TLSv1.2");
            }
        }
        if (protocols.isEmpty()) {
            problems.add(tls, "names no protocol; allowed: TLSv1.3, TLSv1.2");
        }
        List<String> suites = words(tls.attribute("cipherSuites").orElse(""));
        if (!suites.isEmpty()) {
            List<String> supported = supportedSuites();
            for (String s : suites) {
                if (!supported.contains(s)) {
                    problems.add(tls, "names cipher suite " + s + ", which this Java runtime does not support");
                }
            }
        }
        String clients = tls.attribute("clientCertificates").orElse("required");
        Path crl = tls.attribute("crl").map(c -> base.resolve(c).normalize()).orElse(null);
        if (crl != null && !Files.isRegularFile(crl)) {
            problems.add(tls, "names revocation list " + crl + ", which does not exist");
        }
        return new TlsConfig(protocols, suites, !"none".equals(clients), crl);
    }

    private static List<String> words(String s) {
        return Arrays.stream(s.trim().split("[\\s,]+")).filter(w -> !w.isEmpty()).toList();
    }

    private static List<String> supportedSuites() {
        try {
            return List.of(SSLContext.getDefault().getSupportedSSLParameters().getCipherSuites());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java runtime has no TLS: " + e.getMessage(), e);
        }
    }
}
