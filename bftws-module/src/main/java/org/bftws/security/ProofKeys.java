package org.bftws.security;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.util.Locale;
import java.util.Optional;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.util.PrivateKeyFactory;
import org.bouncycastle.crypto.util.PublicKeyFactory;

/**
 * A node's proof key: the Ed25519 key pair it signs its transferable PBFT messages with (docs/wire.md, section 3).
 * keygen stores it in the node's PKCS#12 keystore as an ordinary private-key entry (the JDK's PKCS#12 keystore keeps
 * EdDSA keys and their certificate chain) under {@code proof:NAME}, and the CA-issued certificate of its public key
 * in the truststore under the same alias. A colon never occurs in a party name, so these aliases cannot collide
 * with a party's own entry, and they are distinct from the {@code hmac:PEER} secret-key entries.
 *
 * <p>The keys are stored as JDK key objects, but signing and verifying use BouncyCastle's lightweight Ed25519
 * ({@link Ed25519PrivateKeyParameters}, {@link Ed25519PublicKeyParameters}): about 22 us to sign and 50 us to verify
 * here, against about 400 us each way for the JDK's own Ed25519 provider (docs/architecture.md). These helpers turn
 * the one into the other, once, when a signer or verifier is built.
 */
public final class ProofKeys {
    /** The JDK's name for the key algorithm (KeyPairGenerator, KeyFactory). */
    public static final String ALGORITHM = "Ed25519";
    /** Every Ed25519 signature (RFC 8032) has exactly this many bytes. */
    public static final int SIGNATURE_BYTES = Ed25519PrivateKeyParameters.SIGNATURE_SIZE;
    static final String ALIAS_PREFIX = "proof:";

    private ProofKeys() {
    }

    /** A new key pair (JDK key objects, as a keystore stores them). */
    static KeyPair generate(SecureRandom random) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(ALGORITHM);
            generator.initialize(java.security.spec.NamedParameterSpec.ED25519, random);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java 17 runtime has " + ALGORITHM, e);
        }
    }

    /** The keystore and truststore alias of party {@code name}'s proof key (lower case, as PKCS#12 keeps aliases). */
    static String alias(String name) {
        return ALIAS_PREFIX + name.toLowerCase(Locale.ROOT);
    }

    /** The party whose proof key {@code alias} names, if it is a proof-key alias. */
    static Optional<String> party(String alias) {
        return alias.startsWith(ALIAS_PREFIX) ? Optional.of(alias.substring(ALIAS_PREFIX.length())) : Optional.empty();
    }

    /** {@code key} (an Ed25519 private key, as keystores hold it) as the key BouncyCastle signs with. */
    public static Ed25519PrivateKeyParameters signingKey(PrivateKey key) {
        return convert(key.getEncoded(), true, Ed25519PrivateKeyParameters.class);
    }

    /** {@code key} (an Ed25519 public key, as a certificate holds it) as the key BouncyCastle verifies with. */
    public static Ed25519PublicKeyParameters verifyingKey(PublicKey key) {
        return convert(key.getEncoded(), false, Ed25519PublicKeyParameters.class);
    }

    private static <T> T convert(byte[] encoded, boolean isPrivate, Class<T> type) {
        AsymmetricKeyParameter p;
        try {
            p = encoded == null ? null
                    : isPrivate ? PrivateKeyFactory.createKey(encoded) : PublicKeyFactory.createKey(encoded);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not an " + ALGORITHM + " key: " + e.getMessage(), e);
        }
        if (!type.isInstance(p)) {
            throw new IllegalArgumentException("not an " + ALGORITHM + " key"
                    + (p == null ? "" : " but " + p.getClass().getSimpleName()));
        }
        return type.cast(p);
    }
}
