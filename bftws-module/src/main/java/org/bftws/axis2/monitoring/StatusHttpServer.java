package org.bftws.axis2.monitoring;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.Parameter;
import org.apache.axis2.description.TransportInDescription;
import org.apache.axis2.transport.http.SimpleHTTPServer;
import org.apache.axis2.transport.http.server.HttpFactory;

/**
 * Axis2's SimpleHTTPServer serving the bftws status page next to the services, for a stock Axis2 server whose
 * axis2.xml names its http receiver:
 * {@code <transportReceiver name="http" class="org.bftws.axis2.monitoring.StatusHttpServer">} with the usual
 * {@code port} parameter. Everything else is SimpleHTTPServer's: plain HTTP only, so it refuses to start for a deployment
 * with {@code <tls>}.
 */
public class StatusHttpServer extends SimpleHTTPServer {

    @Override
    public void init(ConfigurationContext context, TransportInDescription transportIn) throws AxisFault {
        if (org.bftws.axis2.security.SecurityRuntime.of(context).config().tlsOn()) {
            throw new AxisFault("bftws: replicas.xml has <tls>, but " + getClass().getName() + " serves plain HTTP"
                    + " only: run the node with ./bftws replica (its own server or --container jetty serve HTTPS), or"
                    + " in a servlet container with an HTTPS connector (docs/deployment.md)");
        }
        Parameter port = transportIn.getParameter(PARAM_PORT);
        int p = port == null ? DEFAULT_PORT : Integer.parseInt(((String) port.getValue()).trim());
        // SimpleHTTPServer.init creates its HttpFactory only when none is set.
        httpFactory = new HttpFactory(context, p, new StatusWorkerFactory());
        super.init(context, transportIn);
    }
}
