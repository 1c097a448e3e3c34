package org.bftws.server;

import java.io.IOException;

import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.bftws.axis2.monitoring.HttpAdmissionCounters;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.HandlerWrapper;

/**
 * The staleness rule of a node's HTTP server in Jetty: the first request of a connection that waited longer than
 * {@code staleAfter} since it was accepted (in Jetty's bounded queue, {@link AdmissionThreadPool}) is not handled,
 * and the connection is closed: its client has given up on it and sent its request again on a new connection. Counted
 * as {@code stale connections dropped}. Later requests of a kept-alive connection are not concerned: their wait
 * began when they were sent, not when the connection was accepted.
 */
final class StaleConnectionHandler extends HandlerWrapper {

    private final long staleAfterMillis;
    private final HttpAdmissionCounters counters;

    StaleConnectionHandler(java.time.Duration staleAfter, HttpAdmissionCounters counters) {
        this.staleAfterMillis = staleAfter.toMillis();
        this.counters = counters;
    }

    @Override
    public void handle(String target, Request baseRequest, HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        if (baseRequest.getHttpChannel().getRequests() <= 1) {
            EndPoint endPoint = baseRequest.getHttpChannel().getEndPoint();
            if (System.currentTimeMillis() - endPoint.getCreatedTimeStamp() > staleAfterMillis) {
                counters.staleDropped.incrementAndGet();
                baseRequest.setHandled(true);
                endPoint.close();
                return;
            }
            counters.served.incrementAndGet();
        }
        super.handle(target, baseRequest, request, response);
    }
}
