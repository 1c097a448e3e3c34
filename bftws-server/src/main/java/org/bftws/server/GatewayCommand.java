package org.bftws.server;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import org.bftws.config.ConfigException;
import org.bftws.config.GroupConfig;
import org.bftws.server.gateway.Gateway;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code gateway}: the command line of {@link Gateway}, a voting gateway for plain SOAP callers. */
@Command(name = "gateway", separator = " ", sortOptions = false, usageHelpWidth = 120,
        description = {
            "Serves the groups of replicas.xml to plain SOAP 1.1/1.2 clients (no WS-RM, no WS-Security): a request "
                    + "POSTed to http(s)://HOST:PORT/axis2/services/S goes to S's group as client NAME (sequence, "
                    + "NAME's keys, every replica, f+1 vote) and the decided reply comes back; S?wsdl is the "
                    + "service's WSDL with the gateway's address (docs/gateway.md).",
            "With replicas.xml's <tls> it serves callers over HTTPS with NAME's certificate (--caller-ca to require "
                    + "theirs); without, plain HTTP, which anybody on the path can read and alter.",
            "Runs beside its callers: whoever reaches it acts as NAME. Prints 'ready gateway HOST:PORT' once it "
                    + "serves; stops on SIGTERM or Ctrl-C.",
            "Exit status: 0 stopped, 1 could not start (the message says why), 2 bad command line."})
public final class GatewayCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    Cli.Help help;

    @Option(names = "--listen", paramLabel = "HOST:PORT", required = true,
            description = "where callers reach it, e.g. 127.0.0.1:8080 (port 0: any free port; host 0.0.0.0: every"
                    + " interface)")
    String listen;

    @Option(names = "--party", paramLabel = "NAME", required = true,
            description = "the <client> of replicas.xml it acts as: its keystore authenticates every request")
    String party;

    @Option(names = "--conf", paramLabel = "FILE", defaultValue = "conf/replicas.xml",
            description = "the deployment's replicas.xml (default ${DEFAULT-VALUE})")
    Path conf;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "16",
            description = "callers served at once, each worker on its own WS-RM sequence (default ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--wsdl", paramLabel = "SERVICE=FILE",
            description = "serve FILE as SERVICE's WSDL (default: fetched from the group's nodes, f+1 identical)")
    Map<String, Path> wsdl = new LinkedHashMap<>();

    @Option(names = "--caller-ca", paramLabel = "FILE",
            description = "with replicas.xml's <tls>: serve only callers presenting a certificate one of the CAs in FILE"
                    + " (PEM or DER) issued (default: callers need no certificate)")
    Path callerCa;

    /** The address --listen names; a bad one is refused as a bad command line. */
    InetSocketAddress listenAddress() {
        int colon = listen.lastIndexOf(':');
        if (colon <= 0 || colon == listen.length() - 1) {
            throw Cli.refuse(spec, "--listen must be HOST:PORT, e.g. 127.0.0.1:8080, not '" + listen + "'");
        }
        String host = listen.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(listen.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw Cli.refuse(spec, "--listen must be HOST:PORT, e.g. 127.0.0.1:8080, not '" + listen + "'");
        }
        Cli.range(spec, "--listen's port", port, 0, 65535);
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw Cli.refuse(spec, "--listen host '" + host + "' does not resolve to an address");
        }
    }

    @Override
    public Integer call() {
        InetSocketAddress address = listenAddress();
        Cli.range(spec, "--threads", threads, 1, 1024);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Gateway gateway;
        try {
            gateway = Gateway.start(address, conf, party, threads, wsdl,
                    NodeRepository.forClient(java.nio.file.Files.createTempDirectory("bftws-gateway-")), callerCa);
        } catch (ConfigException e) {
            e.problems().forEach(p -> err.println("gateway: " + p));
            err.flush();
            return 1;
        } catch (IllegalArgumentException | IOException | IllegalStateException e) {
            err.println("gateway: " + e.getMessage());
            err.flush();
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(gateway::close, "gateway-shutdown"));
        String authority = address.getHostString() + ":" + gateway.address().getPort();
        for (GroupConfig g : gateway.groups()) {
            out.println("gateway: " + (gateway.https() ? "https://" : "http://") + authority + "/axis2/services/" + g.service() + " -> group "
                    + g.endpoint() + " (" + g.nodes().size() + " nodes, f=" + g.f() + ") as " + party);
        }
        out.println("ready gateway " + authority);
        out.flush();
        try {
            new CountDownLatch(1).await(); // until SIGTERM or Ctrl-C: the shutdown hook closes the gateway
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        gateway.close();
        return 0;
    }
}
