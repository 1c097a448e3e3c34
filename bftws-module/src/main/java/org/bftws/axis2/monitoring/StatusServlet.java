package org.bftws.axis2.monitoring;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.transport.http.AxisServlet;

/**
 * The status page in a servlet container: {@code GET} answers the node's figures as JSON, the document
 * {@code /bftws/status} serves on Axis2's own HTTP server (mapped at {@code /metrics} as well, it serves the
 * node's figures in Prometheus' text format instead) ({@link StatusDocument}). It reads the Axis2 node that
 * {@link AxisServlet} runs in the same web application (the servlet context's {@code CONFIGURATION_CONTEXT}
 * attribute), so AxisServlet must load on startup. Other methods are refused (405): the page only reads.
 *
 * <p>It touches no other bftws class, only the servlet API, Axis2 and the JDK: the module hands it the document as a
 * {@code Supplier<String>} property of the node ({@link #STATUS_PROPERTY}). So this one class, alone in a jar
 * (bftws-module's {@code status-servlet} jar), can sit in an Axis2 web application's WEB-INF/lib while the module
 * itself comes from WEB-INF/modules/bftws.mar, in a class loader the web application cannot see; a bftws jar in
 * WEB-INF/lib would be deployed by Axis2 as a second bftws module.
 */
public final class StatusServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    /** The node's property holding a {@code Supplier<String>} of its status JSON (set by the bftws module). */
    public static final String STATUS_PROPERTY = "org.bftws.axis2.monitoring.status";
    /** The node's property holding a {@code Supplier<Integer>} of the page's HTTP status (503: executes nothing). */
    public static final String STATUS_CODE_PROPERTY = "org.bftws.axis2.monitoring.statusCode";
    /** The node's property holding a {@code Supplier<String>} of its figures in Prometheus' text format. */
    public static final String METRICS_PROPERTY = "org.bftws.axis2.monitoring.metrics";
    /** Prometheus' text exposition format. */
    public static final String METRICS_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /**
     * The node's property holding a {@code Predicate<String>} of the parties (client certificate names) that may read
     * the page, when the bftws setting {@code statusReaders} restricts it; absent, whoever reaches it reads it.
     */
    public static final String READERS_PROPERTY = "org.bftws.axis2.monitoring.statusReaders";

    /** The common name on the request's TLS client certificate, or null. */
    private static String clientParty(HttpServletRequest request) {
        if (!(request.getAttribute("javax.servlet.request.X509Certificate")
                instanceof java.security.cert.X509Certificate[] chain) || chain.length == 0) {
            return null;
        }
        try {
            for (javax.naming.ldap.Rdn rdn : new javax.naming.ldap.LdapName(
                    chain[0].getSubjectX500Principal().getName()).getRdns()) {
                if ("CN".equalsIgnoreCase(rdn.getType())) {
                    return String.valueOf(rdn.getValue());
                }
            }
        } catch (javax.naming.InvalidNameException e) {
            return null;
        }
        return null;
    }

    @Override
    @SuppressWarnings("unchecked") // the module sets READERS_PROPERTY to a Predicate<String>
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object node = getServletContext().getAttribute(AxisServlet.CONFIGURATION_CONTEXT);
        if (!(node instanceof ConfigurationContext configuration)) {
            answer(response, 503, "text/plain; charset=utf-8", "bftws: no Axis2 node in this web application yet"
                    + " (AxisServlet must be declared with load-on-startup)\n");
            return;
        }
        String path = request.getServletPath();
        boolean metrics = path != null && path.endsWith("/metrics"); // /metrics in Jetty, /bftws/metrics in a war
        if (!(configuration.getProperty(metrics ? METRICS_PROPERTY : STATUS_PROPERTY) instanceof Supplier<?> status)) {
            answer(response, 503, "text/plain; charset=utf-8", "bftws: the bftws module is not deployed on this"
                    + " Axis2 node (or failed to start: see the node's log)\n");
            return;
        }
        if (configuration.getProperty(READERS_PROPERTY) instanceof java.util.function.Predicate<?> readers
                && !((java.util.function.Predicate<String>) readers).test(clientParty(request))) {
            String party = clientParty(request);
            answer(response, 403, "text/plain; charset=utf-8", "bftws: the status page is for the parties the setting"
                    + " statusReaders names; this request's certificate names " + (party == null ? "nobody" : party)
                    + "\n");
            return;
        }
        String json;
        int code = 200;
        try {
            if (configuration.getProperty(STATUS_CODE_PROPERTY) instanceof Supplier<?> c
                    && c.get() instanceof Integer i) {
                code = i;
            }
            json = String.valueOf(status.get());
        } catch (RuntimeException e) {
            answer(response, 503, "text/plain; charset=utf-8", "bftws: no status: " + e.getMessage() + "\n");
            return;
        }
        answer(response, metrics ? 200 : code, metrics ? METRICS_TYPE : "application/json; charset=utf-8", json);
    }

    private static void answer(HttpServletResponse response, int status, String contentType, String body)
            throws IOException {
        response.setStatus(status);
        response.setContentType(contentType);
        response.setHeader("Cache-Control", "no-store");
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}
