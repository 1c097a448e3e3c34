package org.bftws.security;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import javax.xml.namespace.QName;
import org.apache.wss4j.common.WSEncryptionPart;
import org.apache.wss4j.common.crypto.Crypto;
import org.apache.wss4j.common.ext.WSSecurityException;
import org.apache.wss4j.dom.WSConstants;
import org.apache.wss4j.dom.message.WSSecHeader;
import org.apache.wss4j.dom.message.WSSecSignature;
import org.apache.wss4j.dom.message.WSSecTimestamp;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Adds a wsse:Security header with a wsu:Timestamp and an X.509 signature (RSA-SHA256, SHA-256 digests, exclusive
 * C14N) over the Body, the Timestamp and the WS-Addressing / WS-RM headers present. By default the signer's
 * certificate travels in the message as a BinarySecurityToken, so a receiver needs only the CA to check it.
 */
final class WsSecuritySigner {
    private final Crypto crypto;
    private final String alias;
    private final String password;
    private final Duration timestampTtl;
    private final int keyReference;
    private final ProtectedParts parts;
    private final Clock clock;

    /**
     * @param keyReference a WSS4J key identifier type: {@link WSConstants#BST_DIRECT_REFERENCE} (default) or
     *                     {@link WSConstants#ISSUER_SERIAL} for peers whose policy asks for it
     */
    WsSecuritySigner(Crypto crypto, String alias, String password, Duration timestampTtl, int keyReference,
                     ProtectedParts parts, Clock clock) {
        this.crypto = crypto;
        this.alias = alias;
        this.password = password;
        this.timestampTtl = timestampTtl;
        this.keyReference = keyReference;
        this.parts = parts;
        this.clock = clock;
    }

    /** Signs {@code envelope} in place. */
    void sign(Document envelope) throws WSSecurityException, SecurityRefusal {
        WSSecHeader header = new WSSecHeader(envelope);
        // A signed fault is still readable by peers that do not check it: Rampart skips security processing of
        // faults, and Axis2 would then reject a mustUnderstand Security header instead of showing the fault.
        header.setMustUnderstand(!isFault(parts.body(envelope)));
        header.insertSecurityHeader();
        WSSecTimestamp timestamp = new WSSecTimestamp(header);
        timestamp.setWsTimeSource(clock::instant);
        timestamp.setTimeToLive((int) Math.max(1, timestampTtl.toSeconds()));
        timestamp.build();

        WSSecSignature signature = new WSSecSignature(header);
        signature.setUserInfo(alias, password);
        signature.setKeyIdentifierType(keyReference);
        signature.setSignatureAlgorithm(WSConstants.RSA_SHA256);
        signature.setDigestAlgo(WSConstants.SHA256);
        signature.setSigCanonicalization(WSConstants.C14N_EXCL_OMIT_COMMENTS);
        // the Body first, as every WS-Security peer expects; then headers by name (WSS4J signs each occurrence)
        Element body = parts.body(envelope);
        signature.getParts().add(new WSEncryptionPart(body.getLocalName(), body.getNamespaceURI(), "Element"));
        signature.getParts().add(new WSEncryptionPart("Timestamp", WSConstants.WSU_NS, "Element"));
        Set<QName> headers = new LinkedHashSet<>();
        for (Element h : parts.headers(envelope)) {
            headers.add(new QName(h.getNamespaceURI(), h.getLocalName()));
        }
        for (QName h : headers) {
            signature.getParts().add(new WSEncryptionPart(h.getLocalPart(), h.getNamespaceURI(), "Element"));
        }
        signature.build(crypto);
    }

    private static boolean isFault(Element body) {
        for (org.w3c.dom.Node n = body.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                return "Fault".equals(e.getLocalName()) && body.getNamespaceURI().equals(e.getNamespaceURI());
            }
        }
        return false;
    }
}
