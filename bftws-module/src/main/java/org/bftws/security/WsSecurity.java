package org.bftws.security;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.wss4j.common.crypto.Merlin;
import org.apache.wss4j.common.ext.WSSecurityException;
import org.apache.wss4j.dom.WSConstants;
import org.apache.wss4j.dom.engine.WSSConfig;
import org.bftws.config.GroupConfig;
import org.bftws.config.ReplicasConfig;
import org.bftws.config.SecurityConfig;
import org.w3c.dom.Document;

/**
 * The {@code wssec} profile as a library: sign an envelope as this party, verify any envelope on its own and learn
 * which node or client signed it. The client Voter verifies each replica's reply with {@link #verify}; a replica
 * verifies a client request relayed by another replica the same way. Thread-safe.
 */
public final class WsSecurity {
    static {
        WSSConfig.init();
    }

    private final WsSecuritySigner signer;
    private final WsSecurityVerifier verifier;
    private final java.util.concurrent.atomic.LongAdder signatures = new java.util.concurrent.atomic.LongAdder();

    /**
     * @param self  this party's keys, or null for a verifier that never signs
     * @param trust the deployment truststore
     */
    public WsSecurity(PartyKeystore self, char[] storePassword, DeploymentTrust trust, Duration timestampTtl,
                      Duration clockSkew, ProtectedParts parts, int keyReference) {
        this(self, storePassword, trust, timestampTtl, clockSkew, parts, keyReference, Clock.systemUTC());
    }

    /** With the clock that dates outgoing timestamps (tests make stale and future messages with it). */
    WsSecurity(PartyKeystore self, char[] storePassword, DeploymentTrust trust, Duration timestampTtl,
               Duration clockSkew, ProtectedParts parts, int keyReference, Clock clock) {
        Merlin crypto = new Merlin();
        crypto.setTrustStore(trust.keyStore());
        if (self != null) {
            // In memory only, never written: a PKCS#12 store would derive a PBKDF2 key to protect the entry here and
            // again when Merlin reads it (about 0.3 s of CPU each in a cold JVM, at a restarted replica's first
            // client request, that is while it fetches its state); the keys on disk keep their PKCS#12 protection.
            java.security.KeyStore own = inMemoryStore();
            try {
                own.setKeyEntry(self.name(), self.privateKey(), storePassword,
                        self.chain().toArray(new java.security.cert.X509Certificate[0]));
            } catch (java.security.KeyStoreException e) {
                throw new IllegalStateException(e);
            }
            crypto.setKeyStore(own);
            crypto.setEnablePrivateKeyCaching(true);
            signer = new WsSecuritySigner(crypto, self.name(), new String(storePassword), timestampTtl, keyReference,
                    parts, clock);
        } else {
            signer = null;
        }
        verifier = new WsSecurityVerifier(crypto, trust, timestampTtl, clockSkew, parts);
    }

    /**
     * The wssec profile of party {@code partyName} (a node or client of {@code config}) with the timestamp window
     * of {@code group}: loads its keystore and the truststore that replicas.xml names.
     */
    public static WsSecurity forParty(ReplicasConfig config, String partyName, GroupConfig group) {
        SecurityConfig security = group.security();
        char[] password = config.keys().storePassword().toCharArray();
        Path keystore = config.keystoreOf(partyName).orElseThrow(() -> new IllegalArgumentException("replicas.xml names no node or client '" + partyName + "'"));
        return new WsSecurity(PartyKeystore.load(keystore, partyName, password), password,
                DeploymentTrust.load(config.keys().truststore(), password), security.timestampTtl(),
                security.clockSkew(), ProtectedParts.defaults(), WSConstants.BST_DIRECT_REFERENCE);
    }

    /** A signed copy of {@code envelope} (the argument is left as it was). */
    public SOAPEnvelope sign(SOAPEnvelope envelope) throws SecurityRefusal {
        Document dom = DomBridge.toDom(envelope);
        sign(dom);
        return DomBridge.toAxiom(dom);
    }

    /**
     * Signs {@code outgoing}'s envelope and puts the signed one in its place. When nothing can change it any more
     * ({@link SignedEnvelope}), the signed bytes go along for the transport and the new envelope is parsed from
     * them only if something reads it.
     */
    public void signMessage(MessageContext outgoing) throws SecurityRefusal {
        Document dom = DomBridge.toDom(outgoing.getEnvelope());
        sign(dom);
        try {
            if (SignedEnvelope.keepsBytes(outgoing)) {
                byte[] bytes = DomBridge.serialize(dom);
                SOAPEnvelope signed = DomBridge.lazyEnvelope(bytes);
                outgoing.setEnvelope(signed);
                outgoing.setProperty(SignedEnvelope.PROPERTY, new SignedEnvelope(signed, bytes));
            } else {
                outgoing.setEnvelope(DomBridge.toAxiom(dom));
            }
        } catch (AxisFault e) {
            throw new IllegalStateException("Axis2 refused the signed envelope: " + e.getMessage(), e);
        }
    }

    /** Signs a DOM envelope in place. */
    public void sign(Document envelope) throws SecurityRefusal {
        if (signer == null) {
            throw new IllegalStateException("this WsSecurity has no private key; it can only verify");
        }
        try {
            signer.sign(envelope);
            signatures.increment();
        } catch (WSSecurityException e) {
            throw new IllegalStateException("cannot sign: " + e.getMessage(), e);
        }
    }

    /** Who signed {@code envelope}; SecurityRefusal saying why when it is not authentic, fresh and fully signed. */
    public AuthenticatedParty verify(SOAPEnvelope envelope) throws SecurityRefusal {
        return verifier.verify(DomBridge.toDom(envelope));
    }

    /**
     * Who signed the request {@code incoming} carries: its bytes as received when they are plain UTF-8 XML
     * ({@link ReceivedBytes}), else its parsed envelope.
     */
    public AuthenticatedParty verify(org.apache.axis2.context.MessageContext incoming) throws SecurityRefusal {
        if (!hasSecurityHeader(incoming.getEnvelope())) {
            // "header removed": refused as WSS4J would, without a DOM copy of the message or any WSS4J work
            throw new SecurityRefusal(RefusalReason.UNSIGNED, "no wsse:Security header");
        }
        byte[] received = ReceivedBytes.of(incoming);
        return received == null ? verify(incoming.getEnvelope())
                : verifyAsRead(received, ReceivedBytes.charsetOf(incoming), incoming.getEnvelope());
    }

    /**
     * Who signed a message that was read into {@code parsed} from {@code bytes} with {@code charset} (null: none named):
     * the bytes are verified when the DOM parser must read the same characters from them (plain UTF-8,
     * {@link ReceivedBytes}), else the parsed envelope, so the signature vouches for what was read either way.
     */
    public AuthenticatedParty verifyAsRead(byte[] bytes, String charset, SOAPEnvelope parsed) throws SecurityRefusal {
        return ReceivedBytes.readAlike(bytes, charset) ? verify(bytes) : verify(parsed);
    }

    /** The same for a DOM envelope (verification marks nothing and changes nothing in it). */
    public AuthenticatedParty verify(Document envelope) throws SecurityRefusal {
        return verifier.verify(envelope);
    }

    /** The same for raw bytes, e.g. a reply as it came off the wire in the MulticastSender. */
    public AuthenticatedParty verify(byte[] envelope) throws SecurityRefusal {
        return verifier.verify(DomBridge.parse(envelope));
    }

    /** How many envelopes this profile signed (each a public-key signature), since it was made. */
    public long signaturesMade() {
        return signatures.sum();
    }

    /** Whether {@code envelope}'s SOAP header holds a wsse:Security block (for any actor or role). */
    static boolean hasSecurityHeader(SOAPEnvelope envelope) {
        org.apache.axiom.soap.SOAPHeader header = envelope.getHeader();
        if (header == null) {
            return false;
        }
        for (java.util.Iterator<org.apache.axiom.om.OMElement> it = header.getChildElements(); it.hasNext(); ) {
            javax.xml.namespace.QName name = it.next().getQName();
            if (RefusalReason.WSSE_NS.equals(name.getNamespaceURI()) && "Security".equals(name.getLocalPart())) {
                return true;
            }
        }
        return false;
    }

    /** Signers' certificates whose path to the trust anchors this verifier remembers (tests). */
    int certificatesRemembered() {
        return verifier.certificatesRemembered();
    }

    private static java.security.KeyStore inMemoryStore() {
        try {
            java.security.KeyStore store = java.security.KeyStore.getInstance("JKS");
            store.load(null, null);
            return store;
        } catch (java.security.GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("the JDK has no JKS keystore", e);
        }
    }
}
