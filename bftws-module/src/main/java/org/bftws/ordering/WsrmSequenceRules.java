package org.bftws.ordering;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import org.bftws.core.Request;
import org.bftws.core.SequenceRules;
import org.bftws.rm.SequenceIds;
import org.bftws.rm.Wsrm;

/**
 * The core's {@link SequenceRules} for WS-RM sequences. Creation times: read from the sequence identifier
 * ({@link SequenceIds#createdAt}, the creation time a BFT-WS client's version 7 UUID carries); a caller group's
 * virtual sequence has none and never expires (its next nested request must always find its entry); any other
 * identifier without one counts as created at the epoch, so with an idle limit a request on it is refused as expired
 * (no client keeps an entry for ever by leaving the time out).
 *
 * <p>Which ordered requests end their sequence: a client's TerminateSequence, which a replicated service orders like a
 * request (it carries a wsrm:Sequence header with the sequence's next message number, docs/protocol.md). The core
 * asks at commit and at execution; the answer depends on the request's bytes only (the envelope the client
 * signed, which the request's digest binds), so every replica answers alike, for its own copy and for a relayed
 * one. A TerminateSequence whose body names another sequence than the one it is ordered on ends nothing; its
 * execution is refused with a fault ({@code RmControlReceiver}).
 */
public final class WsrmSequenceRules implements SequenceRules {

    private static final byte[] MARKER = "TerminateSequence".getBytes(StandardCharsets.US_ASCII);
    private static final XMLInputFactory XML = XMLInputFactory.newFactory();

    static {
        XML.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        XML.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    }

    private final java.util.Set<String> virtualSequences;

    /** @param virtualSequences the identifiers of the caller groups' virtual sequences */
    public WsrmSequenceRules(java.util.Set<String> virtualSequences) {
        this.virtualSequences = java.util.Set.copyOf(virtualSequences);
    }

    @Override
    public long createdAt(String client) {
        java.util.OptionalLong t = SequenceIds.createdAt(client);
        if (t.isPresent()) {
            return t.getAsLong();
        }
        return virtualSequences.contains(client) ? NO_CREATION_TIME : 0;
    }

    @Override
    public boolean terminates(Request request) {
        byte[] payload = request.payload();
        if (!contains(payload, MARKER)) {
            return false; // almost every request: no parse
        }
        try {
            return endsSequence(payload, request.id().client());
        } catch (XMLStreamException | RuntimeException e) {
            return false; // not well-formed: the service's receiver refuses it like any malformed request
        }
    }

    /** wsa:Action in the header is TerminateSequence and the body's wsrm:TerminateSequence names {@code sequence}. */
    private static boolean endsSequence(byte[] payload, String sequence) throws XMLStreamException {
        XMLStreamReader r = XML.createXMLStreamReader(new ByteArrayInputStream(payload));
        try {
            boolean action = false;
            int depth = 0;
            String section = null;
            while (r.hasNext()) {
                int event = r.next();
                if (event == XMLStreamConstants.START_ELEMENT) {
                    depth++;
                    if (depth == 2) {
                        section = r.getLocalName();
                    } else if (depth == 3 && "Header".equals(section) && Wsrm.WSA_NS.equals(r.getNamespaceURI())
                            && "Action".equals(r.getLocalName())) {
                        action = Wsrm.TERMINATE_SEQUENCE.equals(r.getElementText().trim());
                        depth--;
                    } else if (depth == 4 && "Body".equals(section) && Wsrm.NS.equals(r.getNamespaceURI())
                            && "Identifier".equals(r.getLocalName())) {
                        return action && sequence.equals(r.getElementText().trim());
                    }
                } else if (event == XMLStreamConstants.END_ELEMENT) {
                    depth--;
                }
            }
            return false;
        } finally {
            r.close();
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
