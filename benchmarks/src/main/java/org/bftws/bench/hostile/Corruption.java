package org.bftws.bench.hostile;

import java.util.Base64;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicLong;
import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.HandlerDescription;
import org.apache.axis2.engine.AxisConfiguration;
import org.apache.axis2.engine.Phase;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.rm.Wsrm;

/**
 * The hostile client's handler: in a phase of its own at the end of the out-flow, after the Security phase where the
 * bftws module wrote the request's {@code mac:RequestAuthenticator} (one HMAC per node, docs/wire.md), and before the
 * module's MulticastSender serialises the envelope once for every node, it spoils that header as its
 * {@link HostileMode} says: each spoilt {@code mac:Entry} gets other bytes of the same length (every byte inverted),
 * so it is well formed and only the MAC check can refuse it; or the header goes. Only application requests (those
 * with a {@code wsrm:Sequence} header) are spoilt: the client's CreateSequence stays authentic, so its requests
 * reach the replicas on a sequence they know, as a faulty client's would; the client also sends one valid request
 * per thread before it arms the handler, so every thread's sequence exists when the attack starts.
 */
final class Corruption extends AbstractHandler {

    static final String PHASE = "BftwsHostileCorruption";
    private static final String MAC_NS = "urn:bftws:mac:1";
    private static final QName REQUEST_AUTHENTICATOR = new QName(MAC_NS, "RequestAuthenticator");
    private static final QName ENTRY = new QName(MAC_NS, "Entry");
    private static final QName SEQUENCE = new QName(Wsrm.NS, "Sequence");

    private final HostileMode mode;
    private final String primary;
    private final AtomicLong spoilt = new AtomicLong();
    /** Off while the client opens its sequences with valid requests, before the attack. */
    private volatile boolean armed = true;

    Corruption(HostileMode mode, String primary) {
        this.mode = mode;
        this.primary = primary;
        init(new HandlerDescription("BftwsHostileCorruption"));
    }

    /** Adds the handler, in a phase of its own, at the end of {@code axis}'s out-flow; returns it. */
    static Corruption install(AxisConfiguration axis, HostileMode mode, String primary) {
        if (!mode.spoilsAuthenticators()) {
            throw new IllegalArgumentException(mode.label() + " spoils no authenticator");
        }
        boolean security = axis.getOutFlowPhases().stream().anyMatch(p -> "Security".equals(p.getPhaseName()));
        if (!security) {
            throw new IllegalStateException("axis2.xml has no out-flow phase Security to come after");
        }
        Corruption handler = new Corruption(mode, primary);
        Phase phase = new Phase(PHASE);
        phase.addHandler(handler);
        axis.getOutFlowPhases().add(phase);
        return handler;
    }

    /** Whether requests sent from now on are spoilt. */
    void arm(boolean on) {
        armed = on;
    }

    /** Requests spoilt so far. */
    long spoilt() {
        return spoilt.get();
    }

    @Override
    public InvocationResponse invoke(MessageContext mc) {
        if (!armed || mc.isServerSide() || mc.getEnvelope() == null) {
            return InvocationResponse.CONTINUE;
        }
        SOAPHeader header = mc.getEnvelope().getHeader();
        if (header == null || !header.getChildrenWithName(SEQUENCE).hasNext()) {
            return InvocationResponse.CONTINUE; // not an application request (CreateSequence, TerminateSequence)
        }
        Iterator<OMElement> blocks = header.getChildrenWithName(REQUEST_AUTHENTICATOR);
        if (!blocks.hasNext()) {
            return InvocationResponse.CONTINUE;
        }
        OMElement block = blocks.next();
        if (mode == HostileMode.NO_HEADER) {
            block.detach();
        } else {
            for (Iterator<OMElement> entries = block.getChildrenWithName(ENTRY); entries.hasNext(); ) {
                OMElement entry = entries.next();
                String to = entry.getAttributeValue(new QName("to"));
                if (to == null || !mode.keepsEntryFor(to, primary)) {
                    entry.setText(Base64.getEncoder().encodeToString(inverted(
                            Base64.getDecoder().decode(entry.getText().trim()))));
                }
            }
        }
        spoilt.incrementAndGet();
        return InvocationResponse.CONTINUE;
    }

    /** Other bytes of the same length: each byte inverted. */
    static byte[] inverted(byte[] mac) {
        byte[] other = mac.clone();
        for (int i = 0; i < other.length; i++) {
            other[i] = (byte) ~other[i];
        }
        return other;
    }
}
