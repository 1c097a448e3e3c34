package org.bftws.bench;

import java.nio.file.Path;

import org.bftws.config.Configuration;
import org.bftws.config.ReplicaChannelKind;
import org.bftws.config.SecurityProfile;

/**
 * {@code ./bftws testbed} options (ARCHITECTURE.md, "Command line").
 *
 * @param configuration I, II or III (paper 3.3); II and III lay out their nodes but order only once BFT ordering
 *                      runs end to end
 * @param clients       client threads, each with its own WS-RM sequence
 * @param requests      measured requests in total, after the warm-up
 * @param warmup        warm-up requests in total (not measured; at least one per client creates its sequence)
 * @param security      the group's message authentication profile
 * @param size          XML elements per echo request
 * @param unreplicated  one node, WS-RM only: the baseline "without replication"
 * @param keep          keep the run directory (it is kept anyway when something failed)
 * @param crash         kill a replica halfway through the measured requests: "primary", "backup" or null
 * @param home          the state directory: run directories and the testbed's keys live under home/testbed
 * @param protocol      a {@code <protocol .../>} element for replicas.xml (from {@code --protocol name=value,..}),
 *                      or null for the defaults
 * @param tiers         2: client and the echo group; 3: client, the echo relay's group, the echo group (paper 4.1.2)
 * @param channel       how the replicas exchange PBFT messages: the binary channel (default) or SOAP
 * @param service       the sample the group runs: "echo" (default) or "kv" (the key-value sample, {@link KvLoad})
 */
record TestbedOptions(Configuration configuration, int clients, int requests, int warmup, SecurityProfile security,
                      int size, boolean unreplicated, boolean keep, String crash, Path home, String protocol,
                      int tiers, ReplicaChannelKind channel, String service) {

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

    static final String USAGE = """
            usage: ./bftws testbed [--config I|II|III] [--clients C] [--requests N] [--warmup W] [--size K]
                                   [--security mac|wssec|none] [--unreplicated] [--crash primary|backup] [--keep]
                                   [--protocol name=value,..] [--channel binary|soap] [--service echo|kv]
              starts the replicas of a generated replicas.xml as JVMs on free loopback ports, runs the echo client
              against them, prints figures, stops them; the last line is
              'echo: N ok, F failed, mean X ms, p99 Y ms, T req/s' (exit status 1 when anything failed)
              --config I|II|III     replication configuration (default I: 4 replicas, f=1)
              --clients C           concurrent client threads, each its own WS-RM sequence (default 1)
              --requests N          measured requests in total (default 1000)
              --warmup W            unmeasured warm-up requests in total (default 500)
              --size K              XML elements per echo request (default 10)
              --security P          mac (default), wssec or none
              --unreplicated        one node, WS-RM only: the baseline without replication
              --crash primary|backup  kill that replica halfway through the measured requests
              --tiers 2|3           2 (default): client -> 4 echo replicas; 3: client -> 4 echo relay replicas ->
                                    4 echo replicas, the relay answering with the backend's reply (Configuration I)
              --channel binary|soap how the replicas exchange PBFT messages: binary frames over TCP (default) or
                                    SOAP over WS-RM to each replica's control service (the paper's design)
              --service echo|kv     the replicated sample: echo (default) or kv, the key-value sample with
                                    conflicting transfers and compare-and-sets on shared accounts, whose
                                    replicas' states are compared at the end (docs/replicating-a-service.md)
              --keep                keep the run directory (logs, replicas.xml); kept anyway after a failure
              --protocol N=V,..     attributes of the group's <protocol> element in replicas.xml, e.g.
                                    batchMaxDelay=20ms,maxBatchesInFlight=2 (docs/configuration.md)""";

    static TestbedOptions parse(String[] argv) {
        Arguments args = new Arguments(argv);
        Configuration configuration = Configuration.I;
        int clients = 1;
        int requests = 1000;
        int warmup = 500;
        SecurityProfile security = SecurityProfile.MAC;
        int size = 10;
        boolean unreplicated = false;
        boolean keep = false;
        String crash = null;
        Path home = Arguments.home();
        String protocol = null;
        int tiers = 2;
        ReplicaChannelKind channel = ReplicaChannelKind.BINARY;
        String service = "echo";
        while (args.hasNext()) {
            String option = args.option();
            switch (option) {
                case "--config" -> configuration = Configuration.valueOf(args.choice(option, "I", "II", "III"));
                case "--tiers" -> tiers = Integer.parseInt(args.choice(option, "2", "3"));
                case "--clients" -> clients = args.integer(option, 1, 256);
                case "--requests" -> requests = args.integer(option, 1, 10_000_000);
                case "--warmup" -> warmup = args.integer(option, 0, 10_000_000);
                case "--size" -> size = args.integer(option, 0, 100_000);
                case "--security" -> security = SecurityProfile.valueOf(
                        args.choice(option, "mac", "wssec", "none").toUpperCase(java.util.Locale.ROOT));
                case "--unreplicated" -> unreplicated = true;
                case "--keep" -> keep = true;
                case "--crash" -> crash = args.choice(option, "primary", "backup");
                case "--home" -> home = args.path(option);
                case "--protocol" -> protocol = protocolElement(args.value(option));
                case "--channel" -> channel = ReplicaChannelKind.valueOf(
                        args.choice(option, "binary", "soap").toUpperCase(java.util.Locale.ROOT));
                case "--service" -> service = args.choice(option, "echo", "kv");
                default -> throw new UsageException("unknown option " + option);
            }
        }
        if (unreplicated && (configuration != Configuration.I || crash != null)) {
            throw new UsageException("--unreplicated runs one node: it takes neither --config II/III nor --crash");
        }
        if (tiers == 3 && (unreplicated || configuration != Configuration.I || security == SecurityProfile.NONE)) {
            throw new UsageException("--tiers 3 runs two Configuration I groups whose nested requests are told apart by"
                    + " their signatures: it takes neither --unreplicated, --config II/III nor --security none");
        }
        if (service.equals("kv") && tiers == 3) {
            throw new UsageException("--service kv runs one group: it does not take --tiers 3");
        }
        return new TestbedOptions(configuration, clients, requests, Math.max(warmup, clients), security, size,
                unreplicated, keep, crash, home, protocol, tiers, channel, service);
    }

    /** {@code name=value,..} as a {@code <protocol>} element; replicas.xml's reader checks names and values. */
    static String protocolElement(String attributes) {
        StringBuilder x = new StringBuilder("<protocol");
        for (String pair : attributes.split(",")) {
            String[] nv = pair.trim().split("=", 2);
            if (nv.length != 2 || !nv[0].matches("[A-Za-z]+") || nv[1].isBlank() || nv[1].matches(".*[<>&\"'].*")) {
                throw new UsageException("--protocol takes name=value pairs separated by commas, e.g. "
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
        String what = service.equals("kv") ? ", the key-value sample" : "";
        return nodes + what + pbft + ", security " + security.name().toLowerCase(java.util.Locale.ROOT) + ", " + clients
                + " client" + (clients == 1 ? "" : "s") + ", " + requests + " requests"
                + (service.equals("kv") ? "" : " of " + size + " element" + (size == 1 ? "" : "s")) + " after "
                + warmup + " warm-up";
    }
}
