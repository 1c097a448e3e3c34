package org.bftws.tls;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.bftws.config.GroupConfig;
import org.bftws.config.NodeConfig;
import org.bftws.config.ReplicasConfig;

/**
 * Which party must answer at an HTTPS address: the node replicas.xml puts there (its service or control endpoint's
 * host and port). TLS replaces hostname verification with this check, since every certificate of a deployment is
 * issued by its CA to a party name, not to a host name. An address replicas.xml puts no node at (a plain service
 * called directly) may be answered by any party of the deployment.
 */
public final class HttpsPeers {
    private final Map<String, Set<String>> byAddress;

    private HttpsPeers(Map<String, Set<String>> byAddress) {
        this.byAddress = byAddress;
    }

    /** The nodes at the https endpoints of {@code config}. */
    public static HttpsPeers of(ReplicasConfig config) {
        Map<String, Set<String>> m = new TreeMap<>();
        for (GroupConfig g : config.groups()) {
            for (NodeConfig n : g.nodes()) {
                for (URI u : new URI[] {n.serviceEndpoint(), n.controlEndpoint()}) {
                    if (u != null && "https".equalsIgnoreCase(u.getScheme()) && u.getHost() != null) {
                        m.computeIfAbsent(key(u.getHost(), u.getPort()), k -> new TreeSet<>(String.CASE_INSENSITIVE_ORDER))
                                .add(n.name());
                    }
                }
            }
        }
        return new HttpsPeers(m);
    }

    private static String key(String host, int port) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h + ":" + (port < 0 ? 443 : port);
    }

    /** The parties that may answer at {@code host:port}; empty when replicas.xml puts no node there. */
    public Set<String> at(String host, int port) {
        return byAddress.getOrDefault(key(host, port), Set.of());
    }

    /**
     * Null when {@code presented} (the name on the certificate the server at {@code host:port} presented, already
     * trusted as the deployment CA's) may answer there; else why not, in one line naming both parties.
     */
    public String problem(String host, int port, String presented) {
        Set<String> expected = at(host, port);
        if (expected.isEmpty() ? presented != null : presented != null && expected.contains(presented)) {
            return null;
        }
        return "https://" + host + ":" + port + " is " + (expected.isEmpty() ? "a party of the deployment"
                : String.join(" or ", expected)) + " in replicas.xml, but it presented the certificate of "
                + (presented == null ? "nobody" : presented);
    }
}
