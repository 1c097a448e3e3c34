package org.bftws.axis2.settings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.apache.axis2.description.AxisModule;
import org.apache.axis2.engine.AxisConfiguration;
import org.apache.axis2.description.Parameter;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ProtocolConfig;
import org.bftws.config.ReplicasConfig;
import org.bftws.config.ReplicasConfigReader;

/**
 * The module's own tunables, from module.xml parameters (overridable in axis2.xml with {@code <moduleConfig
 * name="bftws">}) or system properties {@code bftws.<name>}, which win.
 *
 * @param replicas       conf/replicas.xml, or an empty configuration: every target is then a plain WS-RM endpoint
 * @param maxSequences   live inbound sequences per node; more CreateSequences are refused
 * @param window         messages a sequence may run ahead of delivery; beyond it they are refused, not buffered
 * @param holdTimeout    how long an HTTP exchange waits for its request's delivery before it is answered with a
 *                       fault (the client retransmits and gets the cached reply)
 * @param retransmission client side: first retransmission interval and limit when a target has no group settings
 * @param attemptTimeout client side: how long one HTTP attempt may take before it counts as lost
 * @param replyCacheDepth replies kept per sequence (WS-RM-only mode): 1 suffices for one synchronous sender per
 *                       sequence, k for k threads sharing a sequence
 * @param maxHeldExchanges HTTP exchanges held at once waiting for their reply; each parks one of the HTTP server's
 *                       worker threads, so keep it well below their number (Axis2's SimpleHTTPServer: 100)
 */
public record NodeSettings(ReplicasConfig replicas, int maxSequences, long window, Duration holdTimeout,
                           Duration retransmission, int maxRetransmissions, Duration attemptTimeout,
                           int replyCacheDepth, int maxHeldExchanges) {

    public static NodeSettings from(AxisModule module) {
        ProtocolConfig defaults = ProtocolConfig.defaults();
        String file = value(module, "replicasConfig", "");
        ReplicasConfig replicas = file.isBlank() ? new ReplicasConfig(java.util.List.of(), java.util.List.of())
                : read(Path.of(file));
        return new NodeSettings(replicas,
                Integer.parseInt(value(module, "maxSequences", "1000")),
                Long.parseLong(value(module, "window", "256")),
                Duration.ofMillis(Long.parseLong(value(module, "holdTimeoutMillis", "30000"))),
                Duration.ofMillis(Long.parseLong(value(module, "retransmissionIntervalMillis",
                        Long.toString(defaults.retransmissionInterval().toMillis())))),
                Integer.parseInt(value(module, "maxRetransmissions", Integer.toString(defaults.maxRetransmissions()))),
                Duration.ofMillis(Long.parseLong(value(module, "attemptTimeoutMillis",
                        Long.toString(defaults.clientTimeout().toMillis())))),
                Integer.parseInt(value(module, "replyCacheDepth", "8")),
                Integer.parseInt(value(module, "maxHeldExchanges", "64")));
    }

    private static ReplicasConfig read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("bftws: replicasConfig " + file.toAbsolutePath() + " does not exist");
        }
        // Keys are the security layer's business and checked there; the RM layer needs endpoints only.
        return ReplicasConfigReader.read(file, KeyFileCheck.none());
    }

    private static String value(AxisModule module, String name, String fallback) {
        AxisConfiguration config = module == null ? null : module.getParent();
        String v = config != null ? org.bftws.axis2.settings.ModuleParameters.value(config, name) : System.getProperty("bftws." + name);
        if (v == null && config == null && module != null && module.getParameter(name) != null) {
            v = String.valueOf(module.getParameter(name).getValue()).trim();
        }
        return v == null || v.isBlank() ? fallback : v.trim();
    }
}
