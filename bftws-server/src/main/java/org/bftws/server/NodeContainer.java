package org.bftws.server;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Locale;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.deployment.FileSystemConfigurator;
import org.apache.axis2.engine.AxisConfiguration;

/**
 * Which HTTP server a replica's node answers on ({@code ./bftws replica --container simple|jetty}): one way to start a
 * node from its repository, two servers behind it. Each names the http transport receiver its axis2.xml must have
 * ({@link NodeRepository} writes it).
 */
enum NodeContainer {

    /** Axis2's own SimpleHTTPServer (the default). */
    SIMPLE("org.apache.axis2.transport.http.SimpleHTTPServer"),
    /** AxisServlet in an embedded Jetty 9.4: the servlet container route, as a war deployment runs. */
    JETTY("org.apache.axis2.transport.http.AxisServletListener");

    private final String receiver;

    NodeContainer(String receiver) {
        this.receiver = receiver;
    }

    /** The class of axis2.xml's {@code <transportReceiver name="http">} for this server. */
    String receiver() {
        return receiver;
    }

    /** The option value: simple or jetty. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Creates the node's Axis2 engine from {@code repository} (its axis2.xml) and serves it on {@code bind:port};
     * an IOException says why it could not (the port in use, a module that failed...), everything released.
     */
    NodeHttpServer start(Path repository, InetAddress bind, int port) throws IOException {
        return start(repository, bind, port, axis -> { });
    }

    /**
     * As {@link #start(Path, InetAddress, int)}, with {@code preparation} applied to the Axis2 configuration once it
     * is read and before the modules initialise (a launcher's testing tool: {@link SampleService#configure}).
     */
    NodeHttpServer start(Path repository, InetAddress bind, int port, Preparation preparation) throws IOException {
        var configurator = new FileSystemConfigurator(repository.toString(),
                NodeRepository.axis2Xml(repository).toString()) {
            @Override
            public synchronized AxisConfiguration getAxisConfiguration() throws AxisFault {
                AxisConfiguration axis = super.getAxisConfiguration();
                preparation.prepare(axis);
                return axis;
            }
        };
        var context = ConfigurationContextFactory.createConfigurationContext(configurator);
        return switch (this) {
            case SIMPLE -> SimpleHttpNodeServer.start(context, bind, port);
            case JETTY -> JettyNodeServer.start(context, bind, port);
        };
    }

    /** What a launcher does to a node's Axis2 configuration before the modules initialise. */
    @FunctionalInterface
    interface Preparation {
        void prepare(AxisConfiguration axis) throws AxisFault;
    }
}
