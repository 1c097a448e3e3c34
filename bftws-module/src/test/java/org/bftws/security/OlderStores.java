package org.bftws.security;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Key files as keygen wrote them before proof keys existed, and what a store holds, entry by entry. */
final class OlderStores {
    private OlderStores() {
    }

    /** Removes every proof key entry from the keystores and the truststore in {@code dir}. */
    static void removeProofKeys(Path dir, char[] password) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".p12")).toList()) {
                KeyStore store = Pkcs12.load(file, password);
                for (String alias : Collections.list(store.aliases())) {
                    if (alias.startsWith(ProofKeys.ALIAS_PREFIX)) {
                        store.deleteEntry(alias);
                    }
                }
                Pkcs12.save(store, file, password);
            }
        }
    }

    /** Every entry of {@code file}: its alias, and its key's and certificates' encoded bytes. */
    static Map<String, String> entries(Path file, char[] password) throws Exception {
        KeyStore store = Pkcs12.load(file, password);
        Map<String, String> out = new TreeMap<>();
        for (String alias : Collections.list(store.aliases())) {
            StringBuilder b = new StringBuilder();
            Key key = store.isKeyEntry(alias) ? store.getKey(alias, password) : null;
            if (key != null) {
                b.append(key.getAlgorithm()).append(':').append(Base64.getEncoder().encodeToString(key.getEncoded()));
            }
            Certificate[] chain = store.isKeyEntry(alias) ? store.getCertificateChain(alias)
                    : new Certificate[] {store.getCertificate(alias)};
            for (Certificate c : chain == null ? new Certificate[0] : chain) {
                b.append(" cert:").append(Base64.getEncoder().encodeToString(c.getEncoded()));
            }
            out.put(alias, b.toString());
        }
        return out;
    }
}
