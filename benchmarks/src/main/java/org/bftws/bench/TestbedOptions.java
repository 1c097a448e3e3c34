package org.bftws.bench;

import java.nio.file.Path;

import org.bftws.bench.byzantine.ByzantineMode;
import org.bftws.config.Configuration;
import org.bftws.config.ReplicaChannelKind;
import org.bftws.config.SecurityProfile;
import org.bftws.server.Cli;

/**
 * {@code ./bftws testbed} options, as {@link TestbedCommand} reads them.
 *
 * @param configuration I, II or III (paper 3.3)
 * @param clients       client threads, each with its own WS-RM sequence
 * @param requests      measured requests in total, after the warm-up
 * @param warmup        warm-up requests in total (not measured; at least one per client creates its sequence)
 * @param security      the group's message authentication profile
 * @param size          XML elements per echo request
 * @param unreplicated  one node, WS-RM only: the baseline "without replication"
 * @param keep          keep the run directory (it is kept anyway when something failed)
 * @param crash         kill a replica halfway through the measured requests: "primary", "backup" (with 3 tiers the relay
 *                      group's), "echo-primary", "echo-backup" (the echo group behind the relays) or null
 * @param home          the state directory: run directories and the testbed's keys live under home/testbed
 * @param protocol      a {@code <protocol .../>} element for replicas.xml (from {@code --protocol name=value,..}),
 *                      or null for the defaults
 * @param tiers         2: client and the echo group; 3: client, the echo relay's group, the echo group (paper 4.1.2)
 * @param channel       how the replicas exchange PBFT messages: the binary channel (default) or SOAP
 * @param service       the sample the group runs: "echo" (default) or "kv" (the key-value sample, {@link KvLoad})
 * @param container     the HTTP server of each replica: "simple" (Axis2's SimpleHTTPServer, default) or "jetty"
 *                      (AxisServlet in an embedded Jetty), passed to each replica JVM as {@code --container}
 * @param services      1, or 2: Configuration III shared by two services, echo and kv on one set of agreement nodes
 *                      (replicas.xml's {@code <agreementGroup>}), each with its own execution nodes and clients
 * @param byzantine     the lie one replica tells ({@code --byzantine MODE}: that replica runs with the option and
 *                      replicas.xml allows it for that node only), or null for none
 * @param readOnly      replicas.xml declares the echo operation read-only ({@code --read-only}): the client sends
 *                      each echo unordered and accepts 2f+1 identical replies (docs/protocol.md, "Read-only requests")
 * @param tentative     PBFT's tentative execution ({@code --tentative}): {@code protocol} then sets
 *                      {@code tentativeExecution="true"} (docs/protocol.md, "Tentative execution")
 * @param hostile       a hostile client attacking the group during the run ({@code --hostile MODE[,MODE..]}), or
 *                      null; the measured phase then lasts its start and each attack's duration and after, and
 *                      {@code requests} only bounds it
 * @param tls           replicas.xml has {@code <tls>} ({@code --tls on}, the default): the links run TLS
 */
record TestbedOptions(Configuration configuration, int clients, int requests, int warmup, SecurityProfile security,
                      int size, boolean unreplicated, boolean keep, String crash, Path home, String protocol,
                      int tiers, ReplicaChannelKind channel, String service, String container, int services,
                      ByzantineMode byzantine, boolean readOnly, boolean tentative, HostileOptions hostile,
                      boolean tls) {

    TestbedOptions(Configuration configuration, int clients, int requests, int warmup, SecurityProfile security,
                   int size, boolean unreplicated, boolean keep, String crash, Path home, String protocol, int tiers,
                   ReplicaChannelKind channel, String service, String container, int services, ByzantineMode byzantine,
                   boolean readOnly, boolean tentative, HostileOptions hostile) {
        this(configuration, clients, requests, warmup, security, size, unreplicated, keep, crash, home, protocol, tiers,
                channel, service, container, services, byzantine, readOnly, tentative, hostile, false);
    }

    TestbedOptions(Configuration configuration, int clients, int requests, int warmup, SecurityProfile security,
                   int size, boolean unreplicated, boolean keep, String crash, Path home, String protocol, int tiers,
                   ReplicaChannelKind channel, String service, String container, int services, ByzantineMode byzantine,
                   boolean readOnly, boolean tentative) {
        this(configuration, clients, requests, warmup, security, size, unreplicated, keep, crash, home, protocol, tiers,
                channel, service, container, services, byzantine, readOnly, tentative, null);
    }

    TestbedOptions(Configuration configuration, int clients, int requests, int warmup, SecurityProfile security,
                   int size, boolean unreplicated, boolean keep, String crash, Path home, String protocol, int tiers,
                   ReplicaChannelKind channel, String service, String container, int services, ByzantineMode byzantine,
                   boolean readOnly) {
        this(configuration, clients, requests, warmup, security, size, unreplicated, keep, crash, home, protocol, tiers,
                channel, service, container, services, byzantine, readOnly, false);
    }

    TestbedOptions(Configuration configuration, int clients, int requests, int warmup, SecurityProfile security,
                   int size, boolean unreplicated, boolean keep, String crash, Path home, String protocol, int tiers,
                   ReplicaChannelKind channel, String service, String container) {
        this(configuration, clients, requests, warmup, security, size, unreplicated, keep, crash, home, protocol, tiers,
                channel, service, container, 1, null, false);
    }

    TestbedOptions(Configuration configuration, int clients, int requests, int warmup, SecurityProfile security,
                   int size, boolean unreplicated, boolean keep, String crash, Path home, String protocol, int tiers,
                   ReplicaChannelKind channel, String service) {
        this(configuration, clients, requests, warmup, security, size, unreplicated, keep, crash, home, protocol, tiers,
                channel, service, "simple");
    }

    TestbedOptions(Configuration configuration, int clients, int requests, int warmup, SecurityProfile security,
                   int size, boolean unreplicated, boolean keep, String crash, Path home, String protocol, int tiers,
                   ReplicaChannelKind channel) {
        this(configuration, clients, requests, warmup, security, size, unreplicated, keep, crash, home, protocol, tiers,
                channel, "echo");
    }

    TestbedOptions(Configuration configuration, int clients, int requests, int warmup, SecurityProfile security,
                   int size, boolean unreplicated, boolean keep, String crash, Path home, String protocol, int tiers) {
        this(configuration, clients, requests, warmup, security, size, unreplicated, keep, crash, home, protocol, tiers,
                ReplicaChannelKind.BINARY);
    }

    TestbedOptions(Configuration configuration, int clients, int requests, int warmup, SecurityProfile security,
                   int size, boolean unreplicated, boolean keep, String crash, Path home, String protocol) {
        this(configuration, clients, requests, warmup, security, size, unreplicated, keep, crash, home, protocol, 2);
    }

    TestbedOptions(Configuration configuration, int clients, int requests, int warmup, SecurityProfile security,
                   int size, boolean unreplicated, boolean keep, String crash, Path home) {
        this(configuration, clients, requests, warmup, security, size, unreplicated, keep, crash, home, null);
    }

    /** The options of command line {@code args}; a bad one throws picocli's ParameterException. */
    static TestbedOptions parse(String... args) {
        return Cli.parse(new TestbedCommand(), args).options();
    }

    /** {@code name=value,..} as a {@code <protocol>} element; replicas.xml's reader checks names and values. */
    static String protocolElement(String attributes) {
        StringBuilder x = new StringBuilder("<protocol");
        for (String pair : attributes.split(",")) {
            String[] nv = pair.trim().split("=", 2);
            if (nv.length != 2 || !nv[0].matches("[A-Za-z]+") || nv[1].isBlank() || nv[1].matches(".*[<>&\"'].*")) {
                throw new IllegalArgumentException("--protocol takes name=value pairs separated by commas, e.g. "
                        + "batchMaxDelay=20ms; not '" + pair + "'");
            }
            x.append(' ').append(nv[0]).append("=\"").append(nv[1].trim()).append('"');
        }
        return x.append("/>").toString();
    }

    /** One line for the report: what this run is. */
    String describe() {
        String nodes = unreplicated ? "1 node, no replication (WS-RM only)"
                : tiers == 3 ? "3 tiers: 4 echo relay replicas calling 4 echo replicas, Configuration I, f=1"
                : "Configuration " + configuration + ", f=1";
        String pbft = unreplicated ? "" : ", PBFT over the " + channel.name().toLowerCase(java.util.Locale.ROOT)
                + " channel";
        String what = services == 2 ? ", shared by two services: echo and the key-value sample, each with its own 3"
                + " execution nodes and clients" : service.equals("kv") ? ", the key-value sample" : "";
        String server = container.equals("simple") ? "" : ", each node in AxisServlet in an embedded " + container;
        String lie = byzantine == null ? "" : ", replica" + byzantine.testbedNode() + " Byzantine (" + byzantine.label()
                + ": " + byzantine.lie() + ")";
        String reads = readOnly ? ", echo declared read-only" : "";
        String early = tentative ? ", tentative execution" : "";
        String attack = hostile == null ? "" : ", a hostile client (" + hostile.labels().replace(",", ", then ") + ")";
        return nodes + what + pbft + early + server + lie + reads + attack + ", security "
                + security.name().toLowerCase(java.util.Locale.ROOT)
                + ", " + clients
                + " client" + (clients == 1 ? "" : "s") + ", "
                + (hostile != null ? "calling for " + hostile.total().toSeconds() + " s" : requests + " requests")
                + (services == 2 ? " per service" : "") + (service.equals("kv") ? "" : " of " + size + " element" + (size == 1 ? "" : "s")) + " after "
                + warmup + " warm-up";
    }
}
