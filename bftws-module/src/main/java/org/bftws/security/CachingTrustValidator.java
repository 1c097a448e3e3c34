package org.bftws.security;

import java.security.cert.X509Certificate;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.wss4j.common.crypto.Crypto;
import org.apache.wss4j.common.ext.WSSecurityException;
import org.apache.wss4j.dom.handler.RequestData;
import org.apache.wss4j.dom.validate.SignatureTrustValidator;

/**
 * WSS4J's trust check of a signer's certificate, with memory: the certificate path from a signer's certificate to the
 * deployment's trust anchors is built once per certificate, not once per message (searching the truststore for it
 * was about 3 % of a replica's CPU in a JFR profile of the echo benchmark, nearly all clients' requests coming from a
 * handful of certificates). Safe because the truststore is loaded once and never changes while a node runs, and what
 * is remembered is exactly the certificate (its encoded bytes) whose path validated. The certificate's validity dates
 * are still checked on every message (WSS4J does that before this step), a certificate that fails is never
 * remembered, and with revocation checking asked for nothing is cached. Bounded: forgotten wholesale beyond
 * {@value #LIMIT} certificates. Thread-safe.
 */
final class CachingTrustValidator extends SignatureTrustValidator {
    static final int LIMIT = 1024;

    private final Set<X509Certificate> trusted = ConcurrentHashMap.newKeySet();

    @Override
    protected void verifyTrustInCerts(X509Certificate[] certificates, Crypto crypto, RequestData data,
                                      boolean enableRevocation) throws WSSecurityException {
        if (enableRevocation || certificates == null || certificates.length == 0) {
            super.verifyTrustInCerts(certificates, crypto, data, enableRevocation);
            return;
        }
        if (trusted.contains(certificates[0])) {
            return;
        }
        super.verifyTrustInCerts(certificates, crypto, data, false);
        if (trusted.size() >= LIMIT) {
            trusted.clear();
        }
        trusted.add(certificates[0]);
    }

    /** Certificates currently remembered as trusted (tests). */
    int remembered() {
        return trusted.size();
    }
}
