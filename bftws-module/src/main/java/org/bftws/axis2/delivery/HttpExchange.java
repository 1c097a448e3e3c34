package org.bftws.axis2.delivery;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.servlet.http.HttpServletResponse;


import org.apache.axis2.AxisFault;
import org.apache.axis2.Constants;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.kernel.OutTransportInfo;
import org.apache.axis2.kernel.RequestResponseTransport;
import org.apache.axis2.kernel.TransportUtils;
import org.apache.axis2.kernel.http.HTTPConstants;
import org.apache.axis2.transport.http.server.AxisHttpResponse;
import org.bftws.rm.ReplyCache.CachedReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP request/response exchange of one received message, whose worker thread may be parked in
 * {@code RequestResponseTransport.awaitResponse()} because a handler returned SUSPEND (Axis2 1.8.2's HTTPWorker
 * does that for SUSPEND or HOLD_RESPONSE). Answering writes the serialised reply to the exchange's output stream and
 * releases the worker; it happens at most once, whoever comes first (delivery or the hold timeout).
 */
public final class HttpExchange {
    private static final Logger LOG = LoggerFactory.getLogger(HttpExchange.class);

    private final MessageContext message;
    private final AtomicBoolean answered = new AtomicBoolean();

    private HttpExchange(MessageContext message) {
        this.message = message;
    }

    /** The exchange {@code mc} arrived on, or null when it did not come over a request/response transport. */
    public static HttpExchange of(MessageContext mc) {
        return mc.getProperty(MessageContext.TRANSPORT_OUT) == null ? null : new HttpExchange(mc);
    }

    public boolean isAnswered() {
        return answered.get();
    }

    /** Writes {@code reply} (null: an empty 202 Accepted) and releases a parked worker thread. */
    public boolean answer(CachedReply reply) {
        if (!answered.compareAndSet(false, true)) {
            return false;
        }
        try {
            write(reply);
        } catch (IOException | RuntimeException e) {
            // expected with BFT clients: once f+1 replicas agreed they stop waiting for the slower ones
            LOG.debug("could not write the reply to the waiting HTTP exchange (client gone?): {}", e.toString());
        } finally {
            RequestResponseTransport control =
                    (RequestResponseTransport) message.getProperty(RequestResponseTransport.TRANSPORT_CONTROL);
            if (control != null) {
                control.signalResponseReady();
            }
        }
        return true;
    }

    /** Answers on the worker's own thread, before the flow returned (a duplicate answered from the cache). */
    public boolean answerNow(CachedReply reply) throws AxisFault {
        if (!answered.compareAndSet(false, true)) {
            return false;
        }
        try {
            write(reply);
        } catch (IOException e) {
            throw AxisFault.makeFault(e);
        }
        return true;
    }

    /**
     * The status line of the held exchange: SimpleHTTPServer's response is the out-transport info; under AxisServlet
     * (a servlet container) it is the servlet response, which AxisServlet leaves at 200 once a reply was written.
     */
    private void setStatus(OutTransportInfo info, int status) {
        if (info instanceof AxisHttpResponse r) {
            r.setStatus(status);
        } else if (message.getProperty(HTTPConstants.MC_HTTP_SERVLETRESPONSE) instanceof HttpServletResponse r) {
            r.setStatus(status);
        }
    }

    private void write(CachedReply reply) throws IOException {
        OutTransportInfo info = (OutTransportInfo) message.getProperty(Constants.OUT_TRANSPORT_INFO);
        if (reply == null) {
            setStatus(info, 202);
            return;
        }
        if (reply.fault()) {
            setStatus(info, 500);
        }
        if (info != null) {
            info.setContentType(reply.contentType());
        }
        OutputStream out = (OutputStream) message.getProperty(MessageContext.TRANSPORT_OUT);
        out.write(reply.envelope());
        // not flushed here: the worker completes the response and flushes it once, so the reply (and over TLS its
        // record) is not split into the envelope and the end of the body
        TransportUtils.setResponseWritten(message, true);
    }
}
