package org.bftws.axis2.ordering;

import org.bftws.security.ReceivedBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAP11Constants;
import org.apache.axiom.soap.SOAP12Constants;
import org.apache.axis2.AxisFault;
import org.apache.axis2.builder.Builder;
import org.apache.axis2.builder.SOAPBuilder;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.engine.AxisConfiguration;
import org.bftws.rm.RmCounters;
import org.bftws.security.RefusalLog;

/**
 * A message builder that keeps the exact bytes of every SOAP request before Axis2 parses them. Replicas order a
 * client request under the digest of these bytes, and relay them to a replica that lacks the request, which checks
 * the client's own signature on them; so every replica must see the same bytes the client sent (and signed), not a
 * re-serialisation. The module installs it for the SOAP 1.1 and 1.2 content types, delegating to whatever builder
 * was configured before.
 */
public final class RawRequestCapture implements Builder {


    /** The limit of a node that orders nothing: it keeps any request's bytes, as large as Axis2 takes them. */
    public static final int NO_LIMIT = Integer.MAX_VALUE - 16;

    private static final String[] SOAP_TYPES = {"text/xml", "application/soap+xml"};

    private final Builder delegate;
    private final int limit;

    private final RmCounters counters;

    private RawRequestCapture(Builder delegate, int limit, RmCounters counters) {
        this.delegate = delegate;
        this.limit = limit;
        this.counters = counters;
    }

    /** Wraps the node's SOAP builders (once). */
    public static void install(AxisConfiguration config, int limit, RmCounters counters) {
        for (String type : SOAP_TYPES) {
            Builder current = config.getMessageBuilder(type);
            if (!(current instanceof RawRequestCapture)) {
                config.addMessageBuilder(type, new RawRequestCapture(current == null ? new SOAPBuilder() : current, limit,
                        counters));
            }
        }
    }

    /** The bytes {@code mc} arrived as, or null when it was not captured. */
    public static byte[] of(MessageContext mc) {
        return (byte[]) mc.getProperty(org.bftws.security.ReceivedBytes.PROPERTY);
    }

    @Override
    public OMElement processDocument(InputStream in, String contentType, MessageContext mc) throws AxisFault {
        byte[] bytes;
        try {
            bytes = in.readNBytes(limit + 1);
        } catch (IOException e) {
            throw AxisFault.makeFault(e);
        }
        if (limit != NO_LIMIT && bytes.length > limit) {
            // the sender's fault, with a code: a fault without one is read by Axis2 clients as no fault at all
            boolean soap12 = contentType != null && contentType.contains("application/soap+xml");
            QName code = soap12 ? new QName(SOAP12Constants.SOAP_ENVELOPE_NAMESPACE_URI, "Sender", "soapenv")
                    : new QName(SOAP11Constants.SOAP_ENVELOPE_NAMESPACE_URI, "Client", "soapenv");
            AxisFault fault = new AxisFault("bftws: request larger than " + limit + " bytes refused (the most one"
                    + " PBFT request carries)", code);
            RefusalLog.of(mc.getConfigurationContext()).refused(RefusalLog.peer(mc), "too large", fault.getMessage(),
                    "oversized requests: " + counters.oversizedRequests.incrementAndGet());
            throw RefusalLog.alreadyLogged(fault);
        }
        mc.setProperty(org.bftws.security.ReceivedBytes.PROPERTY, bytes);
        try {
            return delegate.processDocument(new ByteArrayInputStream(bytes), contentType, mc);
        } catch (AxisFault | RuntimeException e) {
            // Axis2 answers these with a fault and logs nothing: one line here, so that garbage is seen and counted
            RefusalLog.of(mc.getConfigurationContext()).refused(RefusalLog.peer(mc), "not a SOAP envelope",
                    "not a SOAP envelope: " + e.getMessage(),
                    "malformed requests: " + counters.malformedRequests.incrementAndGet());
            throw e;
        }
    }

}
