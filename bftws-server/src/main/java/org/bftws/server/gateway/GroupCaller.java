package org.bftws.server.gateway;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import javax.xml.stream.XMLStreamException;

import org.apache.axiom.soap.SOAP12Constants;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPHeader;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.rm.RmSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's client side: one Axis2 ServiceClient per gateway worker thread, each with its own WS-RM sequence
 * (sequence key {@code gateway-worker-<thread id>}), as BftClient gives each calling thread its own. A replica
 * delivers a sequence's messages in order, exactly once; with one sequence per worker, concurrent callers never wait
 * behind each other's requests, and a worker handles one caller request at a time, so its sequence never has two
 * messages in flight. The bftws module numbers, authenticates (with the party's keys), multicasts and votes.
 */
final class GroupCaller implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCaller.class);

    /** The decided reply as the caller gets it: the replicas' envelope without their headers, and whether it is a fault. */
    record Decided(byte[] envelope, boolean fault) {
    }

    /** How long closing waits for the groups to terminate the workers' sequences (a group that is up: milliseconds). */
    private static final long TERMINATE_WAIT_MILLIS = 300;
    /**
     * How long closing waits for the Axis2 engine to stop. Its bftws sender lets copies still in flight reach slower
     * replicas for up to two seconds; a process that is exiting does not wait for all of it (those replicas learn a
     * sequence's end from its idle limit instead).
     */
    private static final long ENGINE_STOP_WAIT_MILLIS = 300;

    private final ConfigurationContext context;
    private final Map<Long, ServiceClient> byThread = new ConcurrentHashMap<>();
    private final Set<List<String>> used = ConcurrentHashMap.newKeySet();

    GroupCaller(ConfigurationContext context) {
        this.context = context;
    }

    /**
     * Sends {@code request}'s payload to the group endpoint in the caller's SOAP version, and returns the reply f+1
     * replicas returned (a SOAP fault included). Throws AxisFault when no reply was decided, with the module's
     * account of what each replica returned.
     */
    Decided call(String groupEndpoint, CallerRequest request) throws AxisFault {
        ServiceClient client = forCurrentThread(groupEndpoint);
        Options options = client.getOptions();
        options.setTo(new EndpointReference(groupEndpoint));
        options.setAction(request.action());
        options.setSoapVersionURI(request.soap() == SoapVersion.SOAP12
                ? SOAP12Constants.SOAP_ENVELOPE_NAMESPACE_URI
                : org.apache.axiom.soap.SOAP11Constants.SOAP_ENVELOPE_NAMESPACE_URI);
        // a fault f+1 replicas returned is the service's answer: hand it to the caller rather than throw it
        options.setExceptionToBeThrownOnSOAPFault(false);
        try {
            client.sendReceive(request.payload());
            MessageContext in = client.getLastOperationContext().getMessageContext(
                    WSDLConstants.MESSAGE_LABEL_IN_VALUE);
            SOAPEnvelope reply = in == null ? null : in.getEnvelope();
            if (reply == null) {
                throw new AxisFault("bftws gateway: the group's decided reply has no SOAP envelope");
            }
            return new Decided(withoutHeader(reply), reply.hasFault());
        } finally {
            client.cleanupTransport();
        }
    }

    /**
     * The replicas' headers (WS-Addressing, WS-RM acknowledgements, their signature or MAC, the view) belong to the
     * gateway's exchange with the group, not to the caller's: the caller gets the Body as the replicas wrote it.
     */
    private static byte[] withoutHeader(SOAPEnvelope reply) throws AxisFault {
        SOAPHeader header = reply.getHeader();
        if (header != null) {
            header.detach();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(2048);
        try {
            reply.serialize(out);
        } catch (XMLStreamException e) {
            throw new AxisFault("bftws gateway: cannot write the decided reply: " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    private ServiceClient forCurrentThread(String endpoint) throws AxisFault {
        long thread = Thread.currentThread().getId();
        ServiceClient client = byThread.get(thread);
        if (client == null) {
            client = new ServiceClient(context, null);
            Options options = new Options();
            options.setProperty(RmSource.SEQUENCE_KEY, sequenceKey(thread));
            client.setOptions(options);
            byThread.put(thread, client);
        }
        used.add(List.of(endpoint, sequenceKey(thread)));
        return client;
    }

    private static String sequenceKey(long thread) {
        return "gateway-worker-" + thread;
    }

    /**
     * Terminates every sequence the workers opened (each a voted call, all at once), waiting at most
     * {@link #TERMINATE_WAIT_MILLIS}: a group that is down would otherwise hold the gateway's exit for the whole
     * retransmission schedule (minutes). Sequences not terminated by then are left to the replicas' limits. Then
     * stops the Axis2 engine, waiting at most {@link #ENGINE_STOP_WAIT_MILLIS}.
     */
    @Override
    public void close() {
        RmSource source = BftwsNode.of(context).source();
        ExecutorService terminating = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "bftws-gateway-terminate");
            t.setDaemon(true);
            return t;
        });
        for (List<String> sequence : used) {
            terminating.execute(() -> {
                try {
                    source.terminate(sequence.get(0), sequence.get(1));
                } catch (AxisFault | RuntimeException e) {
                    LOG.warn("could not terminate the sequence {} to {}: {}", sequence.get(1), sequence.get(0),
                            e.getMessage());
                }
            });
        }
        terminating.shutdown();
        try {
            if (!terminating.awaitTermination(TERMINATE_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                LOG.warn("stopping without terminating every WS-RM sequence: the group did not answer within {} ms;"
                        + " the rest are left to the replicas' limits", TERMINATE_WAIT_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (ServiceClient c : byThread.values()) {
            try {
                c.cleanup();
            } catch (AxisFault e) {
                // the engine stops next; nothing is left to release
            }
        }
        Thread stopping = new Thread(() -> {
            try {
                context.terminate();
            } catch (AxisFault | RuntimeException e) {
                LOG.warn("the gateway's Axis2 engine did not stop cleanly: {}", e.getMessage());
            }
        }, "bftws-gateway-engine-stop");
        stopping.setDaemon(true);
        stopping.start();
        try {
            stopping.join(ENGINE_STOP_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
