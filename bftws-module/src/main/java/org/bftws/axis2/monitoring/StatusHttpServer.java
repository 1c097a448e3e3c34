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
 * {@code port} parameter. Everything else is SimpleHTTPServer's.
 */
public class StatusHttpServer extends SimpleHTTPServer {

    @Override
    public void init(ConfigurationContext context, TransportInDescription transportIn) throws AxisFault {
        Parameter port = transportIn.getParameter(PARAM_PORT);
        int p = port == null ? DEFAULT_PORT : Integer.parseInt(((String) port.getValue()).trim());
        // SimpleHTTPServer.init creates its HttpFactory only when none is set.
        httpFactory = new HttpFactory(context, p, new StatusWorkerFactory());
        super.init(context, transportIn);
    }
}
