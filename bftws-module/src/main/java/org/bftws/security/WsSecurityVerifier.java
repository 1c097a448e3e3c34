package org.bftws.security;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import org.apache.wss4j.common.crypto.AlgorithmSuite;
import org.apache.wss4j.common.crypto.Crypto;
import org.apache.wss4j.common.ext.WSSecurityException;
import org.apache.wss4j.dom.WSConstants;
import org.apache.wss4j.dom.WSDataRef;
import org.apache.wss4j.dom.engine.WSSConfig;
import org.apache.wss4j.dom.engine.WSSecurityEngine;
import org.apache.wss4j.dom.engine.WSSecurityEngineResult;
import org.apache.wss4j.dom.handler.RequestData;
import org.apache.wss4j.dom.handler.WSHandlerResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Verifies one signed envelope with WSS4J and decides who signed it. Beyond WSS4J's checks (signature value,
 * certificate path to a trusted certificate, timestamp window, algorithm suite) it demands exactly one signer whose
 * certificate is the one registered for its CN, a signed Timestamp, and the Body and protocol headers signed in
 * place ({@link ProtectedParts}). It keeps no replay cache: the same signed request legitimately arrives again as a
 * WS-RM retransmission or relayed by another replica; WS-RM numbers and the last-reply table handle replays.
 */
final class WsSecurityVerifier {
    private static final AlgorithmSuite ALGORITHMS = algorithms();

    private final Crypto crypto;
    private final DeploymentTrust trust;
    private final Duration timestampTtl;
    private final Duration clockSkew;
    private final ProtectedParts parts;
    private final WSSConfig config = WSSConfig.getNewInstance();
    private final CachingTrustValidator trustValidator = new CachingTrustValidator();

    WsSecurityVerifier(Crypto crypto, DeploymentTrust trust, Duration timestampTtl, Duration clockSkew,
                       ProtectedParts parts) {
        this.crypto = crypto;
        this.trust = trust;
        this.timestampTtl = timestampTtl;
        this.clockSkew = clockSkew;
        this.parts = parts;
        config.setValidator(WSConstants.SIGNATURE, trustValidator);
    }

    /** Signers' certificates whose trust path is remembered (tests). */
    int certificatesRemembered() {
        return trustValidator.remembered();
    }

    AuthenticatedParty verify(Document envelope) throws SecurityRefusal {
        Element body = parts.body(envelope);
        List<Element> headers = parts.headers(envelope);
        WSHandlerResult result;
        try {
            result = new WSSecurityEngine().processSecurityHeader(envelope, requestData());
        } catch (WSSecurityException e) {
            throw translate(e);
        }
        if (result == null) {
            throw new SecurityRefusal(RefusalReason.UNSIGNED, "no wsse:Security header");
        }
        List<WSSecurityEngineResult> signatures = result.getActionResults().getOrDefault(WSConstants.SIGN, List.of());
        if (signatures.isEmpty()) {
            throw new SecurityRefusal(RefusalReason.UNSIGNED, "the wsse:Security header holds no signature");
        }
        if (signatures.size() > 1) {
            throw new SecurityRefusal(RefusalReason.MALFORMED, signatures.size() + " signatures; exactly one expected");
        }
        WSSecurityEngineResult signature = signatures.get(0);
        X509Certificate cert = (X509Certificate) signature.get(WSSecurityEngineResult.TAG_X509_CERTIFICATE);
        if (cert == null) {
            throw new SecurityRefusal(RefusalReason.UNTRUSTED, "the signature is not made with an X.509 certificate");
        }
        String name = commonName(cert);
        if (!trust.registered(name).map(cert::equals).orElse(false)) {
            throw new SecurityRefusal(RefusalReason.UNTRUSTED, "certificate of '" + name + "' is not the one registered"
                    + " in the truststore for that name");
        }
        List<WSSecurityEngineResult> timestamps = result.getActionResults().getOrDefault(WSConstants.TS, List.of());
        if (timestamps.size() != 1) {
            throw new SecurityRefusal(RefusalReason.NO_TIMESTAMP, timestamps.size() + " timestamps");
        }
        Set<Element> signed = signedElements(signature);
        require(signed, (Element) timestamps.get(0).get(WSSecurityEngineResult.TAG_TOKEN_ELEMENT), "the wsu:Timestamp");
        require(signed, body, "the SOAP Body");
        for (Element header : headers) {
            require(signed, header, "header " + header.getPrefix() + ":" + header.getLocalName());
        }
        return new AuthenticatedParty(name, cert);
    }

    private RequestData requestData() {
        RequestData data = new RequestData();
        data.setWssConfig(config);
        data.setSigVerCrypto(crypto);
        data.setTimeStampTTL((int) timestampTtl.toSeconds());
        data.setTimeStampFutureTTL((int) clockSkew.toSeconds());
        data.setTimeStampStrict(true);
        data.setAlgorithmSuite(ALGORITHMS);
        return data;
    }

    private static Set<Element> signedElements(WSSecurityEngineResult signature) {
        Set<Element> signed = Collections.newSetFromMap(new IdentityHashMap<>());
        @SuppressWarnings("unchecked")
        List<WSDataRef> refs = (List<WSDataRef>) signature.get(WSSecurityEngineResult.TAG_DATA_REF_URIS);
        for (WSDataRef ref : refs == null ? new ArrayList<WSDataRef>() : refs) {
            if (ref.getProtectedElement() != null) {
                signed.add(ref.getProtectedElement());
            }
        }
        return signed;
    }

    /** Identity, not equality: a signed copy elsewhere in the message must not vouch for the element in place. */
    private static void require(Set<Element> signed, Element element, String what) throws SecurityRefusal {
        if (element == null || !signed.contains(element)) {
            throw new SecurityRefusal(RefusalReason.NOT_COVERED, what + " is not signed in place");
        }
    }

    static String commonName(X509Certificate cert) throws SecurityRefusal {
        try {
            for (Rdn rdn : new LdapName(cert.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return rdn.getValue().toString();
                }
            }
        } catch (InvalidNameException e) {
            // fall through
        }
        throw new SecurityRefusal(RefusalReason.UNTRUSTED, "the certificate subject has no CN");
    }

    private static SecurityRefusal translate(WSSecurityException e) {
        RefusalReason reason = switch (e.getErrorCode()) {
            case FAILED_CHECK -> RefusalReason.TAMPERED;
            case FAILED_AUTHENTICATION, SECURITY_TOKEN_UNAVAILABLE -> RefusalReason.UNTRUSTED;
            case MESSAGE_EXPIRED -> RefusalReason.STALE;
            case FAILURE -> causedByCertificatePath(e) ? RefusalReason.UNTRUSTED : RefusalReason.MALFORMED;
            case UNSUPPORTED_ALGORITHM -> RefusalReason.WEAK_ALGORITHM;
            default -> RefusalReason.MALFORMED;
        };
        // a pre-signature WSS4J failure (e.g. key too short) also arrives as INVALID_SECURITY: keep its text
        return new SecurityRefusal(reason, e.getMessage(), e);
    }

    /** WSS4J reports a failed PKIX path check as a generic FAILURE; its cause tells it apart. */
    private static boolean causedByCertificatePath(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.security.cert.CertPathValidatorException
                    || t instanceof java.security.cert.CertPathBuilderException
                    || String.valueOf(t.getMessage()).contains("certificate path")) {
                return true;
            }
        }
        return false;
    }

    private static AlgorithmSuite algorithms() {
        AlgorithmSuite suite = new AlgorithmSuite();
        suite.addSignatureMethod(WSConstants.RSA_SHA256);
        suite.addSignatureMethod("http://www.w3.org/2001/04/xmldsig-more#rsa-sha384");
        suite.addSignatureMethod("http://www.w3.org/2001/04/xmldsig-more#rsa-sha512");
        suite.addDigestAlgorithm(WSConstants.SHA256);
        suite.addDigestAlgorithm("http://www.w3.org/2001/04/xmldsig-more#sha384");
        suite.addDigestAlgorithm("http://www.w3.org/2001/04/xmlenc#sha512");
        suite.addC14nAlgorithm(WSConstants.C14N_EXCL_OMIT_COMMENTS);
        suite.addTransformAlgorithm(WSConstants.C14N_EXCL_OMIT_COMMENTS);
        suite.addTransformAlgorithm("http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#STR-Transform");
        suite.setMinimumAsymmetricKeyLength(2048);
        return suite;
    }
}
