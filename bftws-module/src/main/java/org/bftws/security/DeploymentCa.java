package org.bftws.security;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The deployment's certificate authority: it signs the certificate of every node and client, and the truststore
 * anchors trust in it. Certificates are made with BouncyCastle's builders; keys and signatures use the JDK providers.
 */
public final class DeploymentCa {
    static final String ALIAS = "ca";
    static final String KEY_ALGORITHM = "RSA";
    static final int KEY_BITS = 2048;
    private static final String SIGNATURE_ALGORITHM = "SHA256withRSA";
    private static final Duration CA_VALIDITY = Duration.ofDays(3650);
    private static final Duration PARTY_VALIDITY = Duration.ofDays(825);
    /** The organisational unit that marks a proof key's certificate. */
    static final String PROOF_UNIT = "PBFT proof key";

    private final PrivateKey key;
    private final X509Certificate certificate;
    private final SecureRandom random;

    private DeploymentCa(PrivateKey key, X509Certificate certificate, SecureRandom random) {
        this.key = key;
        this.certificate = certificate;
        this.random = random;
    }

    /** A new CA with a self-signed certificate. */
    public static DeploymentCa create(SecureRandom random) {
        KeyPair pair = newKeyPair(random);
        X500Name name = dn("BFT-WS deployment CA");
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder b = builder(name, name, pair.getPublic(), CA_VALIDITY, random)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
            return new DeploymentCa(pair.getPrivate(), sign(b, pair.getPrivate()), random);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot create the deployment CA", e);
        }
    }

    /** The CA that keygen saved in {@code file}. */
    public static DeploymentCa load(Path file, char[] password, SecureRandom random) {
        KeyStore store = Pkcs12.load(file, password);
        try {
            return new DeploymentCa((PrivateKey) store.getKey(ALIAS, password),
                    (X509Certificate) store.getCertificate(ALIAS), random);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(file + " holds no CA key under alias '" + ALIAS + "'", e);
        }
    }

    public void save(Path file, char[] password) {
        KeyStore store = Pkcs12.empty();
        try {
            store.setKeyEntry(ALIAS, key, password, new X509Certificate[] {certificate});
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        Pkcs12.save(store, file, password);
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /**
     * A revocation list of this CA naming {@code revoked} (certificates it issued) and, kept, whatever {@code earlier}
     * named: what replicas.xml's {@code <tls crl=...>} points at. It says it is current for {@code validity}; a node
     * reads it when it starts.
     */
    public java.security.cert.X509CRL revocationList(java.util.Collection<X509Certificate> revoked,
                                                     java.security.cert.X509CRL earlier, Duration validity) {
        try {
            java.time.Instant now = java.time.Instant.now();
            org.bouncycastle.cert.X509v2CRLBuilder b = new org.bouncycastle.cert.X509v2CRLBuilder(
                    X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()), Date.from(now));
            b.setNextUpdate(Date.from(now.plus(validity)));
            java.util.Set<java.math.BigInteger> serials = new java.util.HashSet<>();
            if (earlier != null && earlier.getRevokedCertificates() != null) {
                for (java.security.cert.X509CRLEntry e : earlier.getRevokedCertificates()) {
                    if (serials.add(e.getSerialNumber())) {
                        b.addCRLEntry(e.getSerialNumber(), e.getRevocationDate(),
                                org.bouncycastle.asn1.x509.CRLReason.unspecified);
                    }
                }
            }
            for (X509Certificate c : revoked) {
                if (!issued(c)) {
                    throw new IllegalArgumentException("the certificate of " + c.getSubjectX500Principal().getName()
                            + " was not issued by this CA: it cannot revoke it");
                }
                if (serials.add(c.getSerialNumber())) {
                    b.addCRLEntry(c.getSerialNumber(), Date.from(now), org.bouncycastle.asn1.x509.CRLReason.unspecified);
                }
            }
            org.bouncycastle.operator.ContentSigner signer =
                    new org.bouncycastle.operator.jcajce.JcaContentSignerBuilder(SIGNATURE_ALGORITHM).build(key);
            return new org.bouncycastle.cert.jcajce.JcaX509CRLConverter().getCRL(b.build(signer));
        } catch (GeneralSecurityException | org.bouncycastle.operator.OperatorCreationException e) {
            throw new IllegalStateException("cannot sign a revocation list", e);
        }
    }

    /** An end-entity certificate with CN = {@code name}, good for signing messages only. */
    public X509Certificate issue(String name, PublicKey subjectKey) {
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder b = builder(X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()),
                    dn(name), subjectKey, PARTY_VALIDITY, random)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true,
                            new KeyUsage(KeyUsage.digitalSignature | KeyUsage.nonRepudiation))
                    .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(subjectKey))
                    .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(certificate));
            return sign(b, key);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot issue a certificate for " + name, e);
        }
    }

    /**
     * The certificate of node {@code name}'s proof key (an Ed25519 public key, {@link ProofKeys}). Marked so that it
     * can never pass for the node's WS-Security certificate: its subject is {@code CN=name, OU=PBFT proof key},
     * its key usage is digitalSignature alone, its key is no RSA key, and it lives under a {@code proof:} alias that
     * neither the WS-Security verifier nor {@link DeploymentTrust#registered} ever looks at.
     */
    public X509Certificate issueProofCertificate(String name, PublicKey proofKey) {
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder b = builder(X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()),
                    proofDn(name), proofKey, PARTY_VALIDITY, random)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(proofKey))
                    .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(certificate));
            return sign(b, key);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot issue a proof key certificate for " + name, e);
        }
    }

    /** True when {@code cert} carries this CA's signature. */
    public boolean issued(X509Certificate cert) {
        return issuedBy(certificate, cert);
    }

    private static boolean issuedBy(X509Certificate ca, X509Certificate cert) {
        try {
            cert.verify(ca.getPublicKey());
            return cert.getIssuerX500Principal().equals(ca.getSubjectX500Principal());
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /**
     * What is wrong with {@code cert} as the certificate of node {@code name}'s proof key under CA {@code ca}, or
     * empty when nothing is: it must carry the CA's signature, name that node with the proof-key unit, allow
     * digitalSignature alone and hold an Ed25519 key.
     */
    static java.util.Optional<String> proofCertificateProblem(X509Certificate ca, X509Certificate cert, String name) {
        if (!issuedBy(ca, cert)) {
            return java.util.Optional.of("was not issued by the deployment CA");
        }
        X500Name subject = X500Name.getInstance(cert.getSubjectX500Principal().getEncoded());
        if (!name.equalsIgnoreCase(value(subject, BCStyle.CN)) || !PROOF_UNIT.equals(value(subject, BCStyle.OU))) {
            return java.util.Optional.of("is the certificate of " + subject + ", not of " + name + "'s proof key");
        }
        boolean[] usage = cert.getKeyUsage();
        boolean signatureOnly = usage != null && usage.length > 0 && usage[0];
        for (int i = 1; usage != null && i < usage.length; i++) {
            signatureOnly &= !usage[i];
        }
        if (!signatureOnly) {
            return java.util.Optional.of("does not restrict its key to digitalSignature");
        }
        try {
            ProofKeys.verifyingKey(cert.getPublicKey());
        } catch (IllegalArgumentException e) {
            return java.util.Optional.of("holds " + e.getMessage());
        }
        return java.util.Optional.empty();
    }

    /**
     * What is wrong with {@code cert} as a party's certificate (what a node or client presents in TLS) under CA
     * {@code ca} at {@code now}, in one line naming the party; empty when nothing is. It must carry the CA's signature,
     * be a party certificate (not a proof key's), and be valid at {@code now}.
     */
    public static java.util.Optional<String> partyCertificateProblem(X509Certificate ca, X509Certificate cert,
                                                                     java.time.Instant now) {
        String who = cert.getSubjectX500Principal().getName();
        if (!issuedBy(ca, cert)) {
            boolean sameName = cert.getIssuerX500Principal().equals(ca.getSubjectX500Principal());
            return java.util.Optional.of("the certificate of " + who + " is not issued by this deployment's CA"
                    + (sameName ? " (it is signed by another CA of the same name: another deployment's keygen)"
                    : " (its issuer is " + cert.getIssuerX500Principal().getName() + ")"));
        }
        X500Name subject = X500Name.getInstance(cert.getSubjectX500Principal().getEncoded());
        if (value(subject, BCStyle.OU) != null || value(subject, BCStyle.CN) == null) {
            return java.util.Optional.of("the certificate of " + who + " is not a party certificate (a proof key's "
                    + "certificate, or no single common name)");
        }
        if (now.isAfter(cert.getNotAfter().toInstant())) {
            return java.util.Optional.of("the certificate of " + who + " expired on " + cert.getNotAfter().toInstant());
        }
        if (now.isBefore(cert.getNotBefore().toInstant())) {
            return java.util.Optional.of("the certificate of " + who + " is not valid before "
                    + cert.getNotBefore().toInstant());
        }
        return java.util.Optional.empty();
    }

    /** The party a certificate names: its common name (a node's or client's name in replicas.xml). */
    public static String partyName(X509Certificate cert) {
        return value(X500Name.getInstance(cert.getSubjectX500Principal().getEncoded()), BCStyle.CN);
    }

    private static String value(X500Name name, org.bouncycastle.asn1.ASN1ObjectIdentifier type) {
        org.bouncycastle.asn1.x500.RDN[] rdns = name.getRDNs(type);
        return rdns.length == 1 && !rdns[0].isMultiValued()
                ? org.bouncycastle.asn1.x500.style.IETFUtils.valueToString(rdns[0].getFirst().getValue()) : null;
    }

    static KeyPair newKeyPair(SecureRandom random) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(KEY_ALGORITHM);
            generator.initialize(KEY_BITS, random);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static X500Name dn(String commonName) {
        return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.O, "BFT-WS").addRDN(BCStyle.CN, commonName).build();
    }

    private static X500Name proofDn(String name) {
        return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.O, "BFT-WS").addRDN(BCStyle.OU, PROOF_UNIT)
                .addRDN(BCStyle.CN, name).build();
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, PublicKey key, Duration validity,
                                                    SecureRandom random) {
        Instant now = Instant.now();
        // backdated an hour so that a peer whose clock is a little behind still accepts a fresh certificate
        return new JcaX509v3CertificateBuilder(issuer, new BigInteger(127, random).add(BigInteger.ONE),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(validity)), subject, key);
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer)
            throws GeneralSecurityException {
        try {
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder(SIGNATURE_ALGORITHM).build(signer)));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }
}
