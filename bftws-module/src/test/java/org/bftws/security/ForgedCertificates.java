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
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                X500Name.getInstance(issuer.certificate().getSubjectX500Principal().getEncoded()), BigInteger.TEN,
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))),
                new X500Name("O=BFT-WS,CN=" + subjectName), subjectKey);
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuer.privateKey())));
    }
}
