package org.bftws.server.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.apache.axis2.AxisFault;
import org.bftws.config.GroupConfig;
import org.bftws.wire.WireLimits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

/**
 * One HTTP exchange under {@code /axis2/services/}: a POST of a plain SOAP request to service S goes to S's group
 * and is answered with the decided reply; a GET of {@code S?wsdl} returns the group's WSDL with the gateway's address.
 * Runs on a gateway worker thread, which holds it until the group decided (or gave up).
 */
final class ServiceExchange implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceExchange.class);
    static final String PREFIX = "/axis2/services/";

    /** A request larger than the replicas take (one PBFT request's payload) is refused before it is read further. */
    private static final int MAX_REQUEST_BYTES = WireLimits.DEFAULT_MAX_PAYLOAD_BYTES;

    private final Map<String, GroupConfig> groups;
    private final Map<String, GroupWsdl> wsdl;
    private final GroupCaller caller;
    private final String advertisedAuthority;

    /**
     * @param advertisedAuthority HOST:PORT to put in WSDL addresses, or null to use the Host header of each request
     *                            (the gateway listens on every interface)
     */
    ServiceExchange(Map<String, GroupConfig> groups, Map<String, GroupWsdl> wsdl, GroupCaller caller,
                    String advertisedAuthority) {
        this.groups = Map.copyOf(groups);
        this.wsdl = Map.copyOf(wsdl);
        this.caller = caller;
        this.advertisedAuthority = advertisedAuthority;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            SoapVersion soap = SoapVersion.ofContentType(exchange.getRequestHeaders().getFirst("Content-Type"));
            try {
                GroupConfig group = group(exchange);
                String method = exchange.getRequestMethod();
                String query = exchange.getRequestURI().getRawQuery();
                if ("GET".equals(method) && query != null && query.equalsIgnoreCase("wsdl")) {
                    String address = (exchange instanceof com.sun.net.httpserver.HttpsExchange ? "https://" : "http://")
                            + authority(exchange) + PREFIX + group.service();
                    send(exchange, 200, "text/xml; charset=UTF-8",
                            wsdl.get(group.service()).document(address).getBytes(StandardCharsets.UTF_8));
                } else if ("POST".equals(method)) {
                    forward(exchange, group);
                } else {
                    exchange.getResponseHeaders().set("Allow", "GET, POST");
                    send(exchange, 405, "text/plain; charset=UTF-8", ("bftws gateway: POST a SOAP request to "
                            + PREFIX + group.service() + ", or GET " + PREFIX + group.service() + "?wsdl\n")
                            .getBytes(StandardCharsets.UTF_8));
                }
            } catch (CallerFault fault) {
                LOG.debug("fault to {}: {}", exchange.getRemoteAddress(), fault.getMessage());
                send(exchange, fault.httpStatus(), soap.contentType(), fault.envelope(soap));
            } catch (RuntimeException e) {
                LOG.warn("request from {} failed", exchange.getRemoteAddress(), e);
                CallerFault fault = new CallerFault(CallerFault.Code.RECEIVER, "bftws gateway: " + e);
                send(exchange, 500, soap.contentType(), fault.envelope(soap));
            }
        }
    }

    private void forward(HttpExchange exchange, GroupConfig group) throws IOException, CallerFault {
        byte[] body = readBody(exchange.getRequestBody());
        CallerRequest request = CallerRequest.read(body, exchange.getRequestHeaders().getFirst("Content-Type"),
                exchange.getRequestHeaders().getFirst("SOAPAction"));
        GroupCaller.Decided reply;
        try {
            reply = caller.call(group.endpoint().toString(), request);
        } catch (AxisFault e) {
            throw new CallerFault(CallerFault.Code.RECEIVER, "bftws gateway: no reply decided by the group of "
                    + group.service() + ": " + e.getMessage());
        }
        send(exchange, reply.fault() ? 500 : 200, request.soap().contentType(), reply.envelope());
    }

    /** The group of the service the path names: S in /axis2/services/S, S.endpoint or S/operation. */
    private GroupConfig group(HttpExchange exchange) throws CallerFault {
        String path = exchange.getRequestURI().getPath();
        String rest = path.startsWith(PREFIX) ? path.substring(PREFIX.length()) : "";
        int end = rest.length();
        for (int i = 0; i < rest.length(); i++) {
            if (rest.charAt(i) == '/' || rest.charAt(i) == '.') {
                end = i;
                break;
            }
        }
        String service = rest.substring(0, end);
        GroupConfig group = groups.get(service);
        if (group == null) {
            throw new CallerFault(CallerFault.Code.SENDER, 404, "bftws gateway: no group serves '" + path
                    + "'; this gateway serves " + String.join(", ", groups.keySet().stream().sorted()
                    .map(s -> PREFIX + s).toList()));
        }
        return group;
    }

    private String authority(HttpExchange exchange) {
        if (advertisedAuthority != null) {
            return advertisedAuthority;
        }
        String host = exchange.getRequestHeaders().getFirst("Host");
        return host != null && !host.isBlank() ? host.trim()
                : exchange.getLocalAddress().getHostString() + ":" + exchange.getLocalAddress().getPort();
    }

    private static byte[] readBody(InputStream in) throws IOException, CallerFault {
        byte[] body = in.readNBytes(MAX_REQUEST_BYTES + 1);
        if (body.length > MAX_REQUEST_BYTES) {
            throw new CallerFault(CallerFault.Code.SENDER, 413, "bftws gateway: the request is larger than "
                    + MAX_REQUEST_BYTES + " bytes, the most the replicas take (one PBFT request's payload)");
        }
        return body;
    }

    private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
