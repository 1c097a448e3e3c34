package org.bftws.axis2.monitoring;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.transport.http.HTTPWorker;
import org.apache.axis2.transport.http.server.AxisHttpRequest;
import org.apache.axis2.transport.http.server.AxisHttpResponse;
import org.apache.axis2.transport.http.server.Worker;
import org.apache.http.HttpException;

/**
 * Axis2's HTTP worker with the status page in front: {@code GET /bftws/status} answers the node's figures as JSON
 * ({@link StatusDocument}); any other path under {@code /bftws} is 404, any other method there 405. Every other
 * request goes to Axis2's own {@link HTTPWorker} untouched, on the same connection thread, so the services and the
 * module's held exchanges (a request whose reply waits for PBFT) behave as without this worker. The page only reads:
 * no parameter, no state change.
 */
public final class StatusWorker implements Worker {

    /** The path prefix the page owns. */
    public static final String PREFIX = "/bftws";
    /** The status page's path. */
    public static final String STATUS = PREFIX + "/status";
    /** The Prometheus endpoint's path. */
    public static final String METRICS = PREFIX + "/metrics";

    private final Worker services = new HTTPWorker();

    @Override
    @SuppressWarnings("unchecked") // the module sets READERS_PROPERTY to a Predicate<String>
    public void service(AxisHttpRequest request, AxisHttpResponse response, MessageContext context)
            throws HttpException, IOException {
        String path = path(request.getRequestURI());
        if (path == null || !(path.equals(PREFIX) || path.startsWith(PREFIX + "/"))) {
            services.service(request, response, context);
            return;
        }
        if (!path.equals(STATUS) && !path.equals(METRICS)) {
            answer(response, 404, "text/plain; charset=utf-8", "bftws: no page " + path + " (the status page is "
                    + STATUS + ", Prometheus' endpoint " + METRICS + ")\n");
        } else if (!"GET".equals(request.getMethod())) {
            response.addHeader("Allow", "GET");
            answer(response, 405, "text/plain; charset=utf-8", "bftws: " + path + " is read-only: GET it\n");
        } else if (context.getConfigurationContext().getProperty(StatusServlet.READERS_PROPERTY)
                instanceof java.util.function.Predicate<?> readers
                && !((java.util.function.Predicate<String>) readers).test(StatusReaders.connectionParty())) {
            String party = StatusReaders.connectionParty();
            answer(response, 403, "text/plain; charset=utf-8", "bftws: " + path + " is for the parties the setting "
                    + StatusReaders.SETTING + " names; this connection's certificate names "
                    + (party == null ? "nobody" : party) + "\n");
        } else if (path.equals(METRICS)) {
            answer(response, 200, StatusServlet.METRICS_TYPE,
                    Monitoring.of(context.getConfigurationContext()).metrics());
        } else {
            Monitoring monitoring = Monitoring.of(context.getConfigurationContext());
            answer(response, monitoring.statusCode(), "application/json; charset=utf-8", monitoring.status());
        }
    }

    /** The JSON of the node of {@code configuration} (also what {@link StatusServlet} serves in a container). */
    public static String status(ConfigurationContext configuration) {
        return Monitoring.of(configuration).status();
    }

    /**
     * The path of a request target: origin form ({@code /bftws/status?x}) or absolute form
     * ({@code http://host:port/bftws/status}); null when it is neither (Axis2's worker then answers it).
     */
    static String path(String target) {
        if (target == null) {
            return null;
        }
        if (target.startsWith("/")) {
            int end = target.length();
            for (char c : new char[] {'?', '#'}) {
                int i = target.indexOf(c);
                if (i >= 0 && i < end) {
                    end = i;
                }
            }
            return target.substring(0, end);
        }
        try {
            URI uri = URI.create(target);
            return uri.isAbsolute() ? uri.getRawPath() : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static void answer(AxisHttpResponse response, int status, String contentType, String body)
            throws IOException {
        response.setStatus(status);
        response.setContentType(contentType);
        response.addHeader("Cache-Control", "no-store");
        OutputStream out = response.getOutputStream();
        out.write(body.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
