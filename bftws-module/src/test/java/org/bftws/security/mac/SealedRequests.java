package org.bftws.security.mac;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.bftws.security.PartyKeystore;

/**
 * A client's request written by hand and sealed over its bytes as the {@code mac} profile's client does it
 * ({@link ByteSeal}), for tests that need an authentic request the module's client would never write (a body that is
 * not well-formed XML).
 */
public final class SealedRequests {
    private SealedRequests() {
    }

    /** The request authenticator header with placeholders, for {@code client} and these nodes. */
    public static String header(String client, List<String> nodes) {
        StringBuilder b = new StringBuilder("<mac:RequestAuthenticator xmlns:mac=\"" + AuthenticatorHeader.NS
                + "\" soapenv:mustUnderstand=\"1\" from=\"" + client + "\" covers=\"bytes\">");
        String placeholder = new String(ByteSeal.PLACEHOLDER, StandardCharsets.US_ASCII);
        for (String node : nodes) {
            b.append("<mac:Entry to=\"").append(node).append("\">").append(placeholder).append("</mac:Entry>");
        }
        return b.append("</mac:RequestAuthenticator>").toString();
    }

    /** {@code envelope} (holding {@link #header}) with each node's MAC written over its placeholder. */
    public static byte[] seal(String envelope, Path keystore, String client, char[] password, String group,
                              List<String> nodes) {
        byte[] bytes = envelope.getBytes(StandardCharsets.UTF_8);
        PairwiseKeys keys = new PairwiseKeys(PartyKeystore.load(keystore, client, password));
        byte[] input = MacInput.ofRequestBytes(group, client, bytes);
        ByteSeal.seal(bytes, nodes.stream().map(n -> keys.mac(n, input).orElseThrow()).toList());
        return bytes;
    }
}
