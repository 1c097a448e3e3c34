package org.bftws.axis2.client;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Compares replies by their SOAP Body's bytes: the text between the Body start tag and its end tag. */
final class SoapBodies {

    private SoapBodies() {
    }

    /** SHA-256 of the body's content bytes, or of the whole response when no Body element is found. */
    static String key(NodeReply reply) {
        String text = new String(reply.body(), StandardCharsets.UTF_8);
        int start = text.indexOf(":Body");
        int open = start < 0 ? -1 : text.indexOf('>', start);
        int end = text.lastIndexOf(":Body>");
        String body = open >= 0 && end > open ? text.substring(open + 1, text.lastIndexOf('<', end)) : text;
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(body.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always provides SHA-256", e);
        }
    }
}
