package org.bftws.security;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.bftws.config.ClientConfig;
import org.bftws.config.GroupConfig;
import org.bftws.config.KeysConfig;
import org.bftws.config.NodeConfig;
import org.bftws.config.ReplicasConfig;

/**
 * Writes the deployment's keys where replicas.xml says (docs/configuration.md, "Keys"; its command line is
 * {@code bftws-server keygen}, also {@code ./bftws keygen}). A CA; for every node and client a PKCS#12 keystore with
 * an RSA-2048 key and a CA-issued certificate (CN = its name); for every node an Ed25519 proof key with its own CA-issued certificate
 * (the embedded signatures of PBFT messages, {@link ProofKeys}); pairwise HMAC-SHA256 keys between every two nodes
 * and between every client and every node (the {@code mac} profile's requests and replies), each party holding
 * only its own; a truststore with the CA, every party's certificate and every node's proof key certificate.
 * Existing keys are kept unless --force and missing ones added, so running it again after adding a replica to
 * replicas.xml only adds that replica's keys, and running it on stores written before proof keys existed adds them.
 */
public final class KeyGenerator {
    private static final int MAC_KEY_BYTES = 32;

    private final ReplicasConfig config;
    private final KeysConfig keys;
    private final char[] password;
    private final boolean force;
    private final SecureRandom random = new SecureRandom();
    private final List<String> report = new ArrayList<>();

    public KeyGenerator(ReplicasConfig config, boolean force) {
        if (config.keys() == null || config.keys().storePassword() == null) {
            throw new IllegalArgumentException("replicas.xml has no <keys truststore=\"...\" storePassword=\"...\"/>;"
                    + " add it to say where keygen should write the keys");
        }
        this.config = config;
        this.keys = config.keys();
        this.password = keys.storePassword().toCharArray();
        this.force = force;
    }

    /** Writes the key files; returns one line per file saying what was done. */
    public List<String> run() {
        DeploymentCa ca = ca();
        Map<String, PartyKeystore> parties = new LinkedHashMap<>();
        Map<String, Path> files = new LinkedHashMap<>();
        for (GroupConfig group : config.groups()) {
            for (NodeConfig node : group.nodes()) {
                files.put(node.name(), node.keystore());
            }
        }
        for (ClientConfig client : config.clients()) {
            files.put(client.name(), client.keystore());
        }
        java.util.Set<String> nodes = new java.util.HashSet<>();
        config.groups().forEach(g -> g.nodes().forEach(n -> nodes.add(n.name())));
        files.forEach((name, file) -> parties.put(name, party(ca, name, file, nodes.contains(name))));
        Map<String, Map<String, SecretKey>> macs = macKeys(parties);
        files.forEach((name, file) -> parties.get(name).withMacKeys(macs.getOrDefault(name, Map.of())).save(file, password));
        KeyStore trust = Pkcs12.empty();
        int proofKeys = 0;
        try {
            trust.setCertificateEntry(DeploymentCa.ALIAS, ca.certificate());
            for (PartyKeystore p : parties.values()) {
                trust.setCertificateEntry(p.name(), p.certificate());
                if (!p.proofChain().isEmpty()) {
                    trust.setCertificateEntry(ProofKeys.alias(p.name()), p.proofChain().get(0));
                    proofKeys++;
                }
            }
        } catch (java.security.KeyStoreException e) {
            throw new IllegalStateException(e);
        }
        Pkcs12.save(trust, keys.truststore(), password);
        report.add("wrote " + keys.truststore() + " (CA, " + parties.size() + " certificates and " + proofKeys
                + " proof key certificates)");
        return report;
    }

    private DeploymentCa ca() {
        Path file = keys.caKeystore();
        if (Files.exists(file) && !force) {
            report.add("kept " + file);
            return DeploymentCa.load(file, password, random);
        }
        DeploymentCa ca = DeploymentCa.create(random);
        ca.save(file, password);
        report.add("created " + file);
        return ca;
    }

    private PartyKeystore party(DeploymentCa ca, String name, Path file, boolean node) {
        if (Files.exists(file) && !force) {
            PartyKeystore existing = PartyKeystore.load(file, name, password);
            if (!ca.issued(existing.certificate())) {
                throw new IllegalStateException(file + " holds a certificate that " + keys.caKeystore()
                        + " did not issue (was the CA recreated?); run keygen --force to recreate all keys");
            }
            if (!node || existing.proofKey().isPresent()) {
                existing.proofKey().ifPresent(k -> checkProofKey(ca, file, existing));
                report.add("kept " + file);
                return existing;
            }
            report.add("added a proof key to " + file + " (" + name + "), kept its other keys");
            return withNewProofKey(ca, existing);
        }
        KeyPair pair = DeploymentCa.newKeyPair(random);
        X509Certificate cert = ca.issue(name, pair.getPublic());
        report.add("created " + file + " (" + name + ")");
        PartyKeystore created = new PartyKeystore(name, pair.getPrivate(), List.of(cert, ca.certificate()), Map.of());
        return node ? withNewProofKey(ca, created) : created;
    }

    /** A kept proof key must be the one its certificate names, and the certificate this CA's for this node. */
    private void checkProofKey(DeploymentCa ca, Path file, PartyKeystore party) {
        X509Certificate cert = party.proofChain().get(0);
        String problem = DeploymentCa.proofCertificateProblem(ca.certificate(), cert, party.name()).orElse(null);
        if (problem == null && !java.util.Arrays.equals(
                ProofKeys.signingKey(party.proofKey().orElseThrow()).generatePublicKey().getEncoded(),
                ProofKeys.verifyingKey(cert.getPublicKey()).getEncoded())) {
            problem = "is not the certificate of the proof key beside it";
        }
        if (problem != null) {
            throw new IllegalStateException(file + ": the proof key certificate " + problem
                    + "; run keygen --force to recreate all keys");
        }
    }

    private PartyKeystore withNewProofKey(DeploymentCa ca, PartyKeystore party) {
        KeyPair proof = ProofKeys.generate(random);
        X509Certificate cert = ca.issueProofCertificate(party.name(), proof.getPublic());
        return party.withProofKey(proof.getPrivate(), List.of(cert, ca.certificate()));
    }

    /**
     * One key per pair of nodes of the deployment, and one per client and node. A pair's existing key is kept when either
     * side has it (so one re-created node gets the key its peers already hold); two different keys for one pair mean
     * the stores were mixed from different runs, which only --force may resolve.
     */
    private Map<String, Map<String, SecretKey>> macKeys(Map<String, PartyKeystore> parties) {
        Map<String, Map<String, SecretKey>> out = new TreeMap<>();
        // every two nodes of the deployment: a group's nodes exchange PBFT messages, and a caller group's replicas
        // send nested requests to a callee's nodes and get their replies (paper 3.4); what two nodes may exchange is
        // the protocol's business, a key only lets each know the other sent it
        List<String> nodes = new java.util.ArrayList<>(new java.util.LinkedHashSet<>(config.groups().stream()
                .flatMap(g -> g.nodes().stream()).map(NodeConfig::name).toList()));
        for (int i = 0; i < nodes.size(); i++) {
            for (int j = i + 1; j < nodes.size(); j++) {
                share(out, parties, nodes.get(i), nodes.get(j));
            }
        }
        for (ClientConfig client : config.clients()) {
            for (String node : nodes) {
                share(out, parties, client.name(), node);
            }
        }
        return out;
    }

    private void share(Map<String, Map<String, SecretKey>> out, Map<String, PartyKeystore> parties, String a, String b) {
        if (out.getOrDefault(a, Map.of()).containsKey(b.toLowerCase(Locale.ROOT))) {
            return; // two agreement nodes of an <agreementGroup> pair up in every service they order: one key
        }
        SecretKey key = pairKey(parties.get(a), parties.get(b));
        out.computeIfAbsent(a, k -> new TreeMap<>()).put(b.toLowerCase(Locale.ROOT), key);
        out.computeIfAbsent(b, k -> new TreeMap<>()).put(a.toLowerCase(Locale.ROOT), key);
    }

    private SecretKey pairKey(PartyKeystore a, PartyKeystore b) {
        SecretKey ab = force ? null : a.macKeyWith(b.name()).orElse(null);
        SecretKey ba = force ? null : b.macKeyWith(a.name()).orElse(null);
        if (ab != null && ba != null && !java.security.MessageDigest.isEqual(ab.getEncoded(), ba.getEncoded())) {
            throw new IllegalStateException(a.name() + " and " + b.name() + " hold different MAC keys for each other;"
                    + " run keygen --force to recreate all keys");
        }
        if (ab != null || ba != null) {
            return ab != null ? ab : ba;
        }
        byte[] bytes = new byte[MAC_KEY_BYTES];
        random.nextBytes(bytes);
        return new SecretKeySpec(bytes, PartyKeystore.MAC_ALGORITHM);
    }
}
