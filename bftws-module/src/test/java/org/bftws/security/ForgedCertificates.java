package org.bftws.security;

import java.math.BigInteger;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** What an attacker holding one party's private key can make: certificates for other names, signed by that key. */
final class ForgedCertificates {
    private ForgedCertificates() {
    }

    static X509Certificate issue(PartyKeystore issuer, String subjectName, PublicKey subjectKey) throws Exception {
        return issue(issuer, issuer.certificate(), new X500Name("O=BFT-WS,CN=" + subjectName), subjectKey, null);
    }

    /**
     * A proof key certificate for node {@code node}, exactly as the CA makes them (it names the CA as its issuer)
     * but signed by {@code signer}'s key.
     */
    static X509Certificate issueProof(PartyKeystore signer, X509Certificate ca, String node, PublicKey subjectKey)
            throws Exception {
        return issue(signer, ca, new X500Name("O=BFT-WS,OU=" + DeploymentCa.PROOF_UNIT + ",CN=" + node), subjectKey,
                new org.bouncycastle.asn1.x509.KeyUsage(org.bouncycastle.asn1.x509.KeyUsage.digitalSignature));
    }

    private static X509Certificate issue(PartyKeystore signer, X509Certificate issuer, X500Name subject,
                                         PublicKey subjectKey, org.bouncycastle.asn1.x509.KeyUsage usage)
            throws Exception {
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                X500Name.getInstance(issuer.getSubjectX500Principal().getEncoded()), BigInteger.TEN,
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject, subjectKey);
        if (usage != null) {
            b.addExtension(org.bouncycastle.asn1.x509.Extension.keyUsage, true, usage);
        }
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withRSA").build(signer.privateKey())));
    }
}
