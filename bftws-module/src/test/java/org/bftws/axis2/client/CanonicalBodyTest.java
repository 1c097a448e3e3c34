package org.bftws.axis2.client;

import org.bftws.voting.SignedReplies;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** The canonical form the Voter compares: SOAP 1.2 fault codes, depth bound, headers ignored. */
class CanonicalBodyTest {
    private static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";

    private static byte[] canonical(String prefix, String header, String body) {
        return CanonicalBody.of(SignedReplies.parse("<" + prefix + ":Envelope xmlns:" + prefix + "=\"" + SOAP12 + "\">"
                + "<" + prefix + ":Header>" + header + "</" + prefix + ":Header><" + prefix + ":Body>" + body + "</"
                + prefix + ":Body></" + prefix + ":Envelope>").getBody());
    }

    private static String fault12(String p, String rmPrefix, String subcode) {
        return "<" + p + ":Fault><" + p + ":Code><" + p + ":Value>" + p + ":Sender</" + p + ":Value><" + p + ":Subcode>"
                + "<" + p + ":Value xmlns:" + rmPrefix + "=\"http://docs.oasis-open.org/ws-rx/wsrm/200702\">" + rmPrefix
                + ":" + subcode + "</" + p + ":Value></" + p + ":Subcode></" + p + ":Code><" + p + ":Reason><" + p
                + ":Text xml:lang=\"en\">why</" + p + ":Text></" + p + ":Reason></" + p + ":Fault>";
    }

    @Test
    void soap12FaultCodesAndSubcodesCompareByQualifiedNameNotPrefix() {
        assertArrayEquals(canonical("soapenv", "", fault12("soapenv", "wsrm", "UnknownSequence")),
                canonical("s", "", fault12("s", "rm", "UnknownSequence")));
        assertFalse(Arrays.equals(canonical("soapenv", "", fault12("soapenv", "wsrm", "UnknownSequence")),
                canonical("soapenv", "", fault12("soapenv", "wsrm", "SequenceClosed"))));
    }

    @Test
    void headersNeverCount() {
        assertArrayEquals(canonical("s", "<a xmlns=\"urn:h\">1</a>", "<r xmlns=\"urn:x\">ok</r>"),
                canonical("s", "<a xmlns=\"urn:h\">2</a><b xmlns=\"urn:h\"/>", "<r xmlns=\"urn:x\">ok</r>"));
    }

    @Test
    void aBodyNestedBeyondTheBoundIsRefusedInsteadOfExhaustingTheStack() {
        int depth = CanonicalBody.MAX_DEPTH + 2;
        String deep = "<d xmlns=\"urn:x\">".repeat(depth) + "</d>".repeat(depth);
        assertThrows(IllegalArgumentException.class, () -> canonical("s", "", deep));
    }
}
