package org.bftws.security;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.crypto.SecretKey;

/**
 * One node's or client's PKCS#12 keystore: its RSA private key and CA-issued certificate under its own name (for
 * WS-Security), the HMAC-SHA256 keys it shares with the nodes, as secret-key entries under {@code hmac:PEER}, and for
 * a node its Ed25519 proof key and that key's CA-issued certificate under {@code proof:NAME} ({@link ProofKeys}). A
 * colon never occurs in a party name, so the aliases cannot collide.
 */
public final class PartyKeystore {
    static final String MAC_ALIAS_PREFIX = "hmac:";
    public static final String MAC_ALGORITHM = "HmacSHA256";

    private final String name;
    private final PrivateKey privateKey;
    private final List<X509Certificate> chain;
    private final Map<String, SecretKey> macKeys;
    /** The proof key and its chain (certificate, CA); null and empty for a client or a store keygen wrote before. */
    private final PrivateKey proofKey;
    private final List<X509Certificate> proofChain;

    PartyKeystore(String name, PrivateKey privateKey, List<X509Certificate> chain, Map<String, SecretKey> macKeys) {
        this(name, privateKey, chain, macKeys, null, List.of());
    }

    PartyKeystore(String name, PrivateKey privateKey, List<X509Certificate> chain, Map<String, SecretKey> macKeys,
                  PrivateKey proofKey, List<X509Certificate> proofChain) {
        this.name = name;
        this.privateKey = privateKey;
        this.chain = List.copyOf(chain);
        this.macKeys = Collections.unmodifiableMap(new TreeMap<>(macKeys));
        this.proofKey = proofKey;
        this.proofChain = proofKey == null ? List.of() : List.copyOf(proofChain);
    }

    /** What this process read of each keystore file, by party: a file is read once (see {@link LoadedOnce}). */
    private static final java.util.concurrent.ConcurrentMap<String, LoadedOnce<PartyKeystore>> LOADED =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The keys of party {@code name} in {@code file}; IllegalStateException naming the file when it lacks that key.
     * Read from the file once per process (and version of the file): every component of a node asks for its keys
     * and gets the same immutable value; another password than the first reader's reads the file again.
     */
    public static PartyKeystore load(Path file, String name, char[] password) {
        return LOADED.computeIfAbsent(name, n -> new LoadedOnce<>()).get(file, password, () -> read(file, name, password));
    }

    /** How many times this process read a keystore file of party {@code name}. */
    static int fileReads(String name) {
        LoadedOnce<PartyKeystore> l = LOADED.get(name);
        return l == null ? 0 : l.reads();
    }

    private static PartyKeystore read(Path file, String name, char[] password) {
        KeyStore store = Pkcs12.load(file, password);
        try {
            Key key = store.getKey(name, password);
            if (!(key instanceof PrivateKey privateKey)) {
                throw new IllegalStateException(file + " holds no private key for '" + name
                        + "'; run ./bftws keygen --force to recreate it");
            }
            Certificate[] certs = store.getCertificateChain(name);
            List<X509Certificate> chain = java.util.Arrays.stream(certs).map(c -> (X509Certificate) c).toList();
            Map<String, SecretKey> macs = new TreeMap<>();
            for (String alias : Collections.list(store.aliases())) {
                if (alias.startsWith(MAC_ALIAS_PREFIX) && store.getKey(alias, password) instanceof SecretKey secret) {
                    macs.put(alias.substring(MAC_ALIAS_PREFIX.length()), secret);
                }
            }
            PrivateKey proofKey = null;
            List<X509Certificate> proofChain = List.of();
            if (store.getKey(ProofKeys.alias(name), password) instanceof PrivateKey k) {
                proofKey = k;
                proofChain = java.util.Arrays.stream(store.getCertificateChain(ProofKeys.alias(name)))
                        .map(c -> (X509Certificate) c).toList();
            }
            return new PartyKeystore(name, privateKey, chain, macs, proofKey, proofChain);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(file + ": cannot read the keys of '" + name + "': " + e.getMessage(), e);
        }
    }

    void save(Path file, char[] password) {
        KeyStore store = Pkcs12.empty();
        try {
            store.setKeyEntry(name, privateKey, password, chain.toArray(new X509Certificate[0]));
            KeyStore.ProtectionParameter protection = new KeyStore.PasswordProtection(password);
            for (Map.Entry<String, SecretKey> mac : macKeys.entrySet()) {
                store.setEntry(MAC_ALIAS_PREFIX + mac.getKey(), new KeyStore.SecretKeyEntry(mac.getValue()), protection);
            }
            if (proofKey != null) {
                store.setKeyEntry(ProofKeys.alias(name), proofKey, password, proofChain.toArray(new X509Certificate[0]));
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(file + ": cannot store the keys of '" + name + "'", e);
        }
        Pkcs12.save(store, file, password);
    }

    public String name() { return name; }

    public PrivateKey privateKey() { return privateKey; }

    /** The party's own certificate (CN = its name). */
    public X509Certificate certificate() { return chain.get(0); }

    /** Its certificate followed by the CA's. */
    public List<X509Certificate> chain() { return chain; }

    /** The key this party shares with node {@code peer}, for the mac profile. */
    public Optional<SecretKey> macKeyWith(String peer) {
        return Optional.ofNullable(macKeys.get(peer.toLowerCase(java.util.Locale.ROOT)));
    }

    /** All pairwise keys by peer name (lower case, as PKCS#12 keeps aliases). */
    public Map<String, SecretKey> macKeys() { return macKeys; }

    /** The node's Ed25519 proof key; empty for a client, or for a node whose store keygen has not completed yet. */
    public Optional<PrivateKey> proofKey() { return Optional.ofNullable(proofKey); }

    /** The proof key's certificate followed by the CA's; empty without a proof key. */
    public List<X509Certificate> proofChain() { return proofChain; }

    /** The same keys with {@code key} and {@code chain} as the proof key (keygen adds it to older stores). */
    PartyKeystore withProofKey(PrivateKey key, List<X509Certificate> chain) {
        return new PartyKeystore(name, privateKey, this.chain, macKeys, key, chain);
    }

    /** The same keys with {@code keys} as the pairwise MAC keys. */
    PartyKeystore withMacKeys(Map<String, SecretKey> keys) {
        return new PartyKeystore(name, privateKey, chain, keys, proofKey, proofChain);
    }
}
