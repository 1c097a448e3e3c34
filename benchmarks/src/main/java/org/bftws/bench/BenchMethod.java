package org.bftws.bench;

/** The method section of the results page: enough to rerun the suite and to read its figures right. */
final class BenchMethod {

    private BenchMethod() {
    }

    /** How and when BFT-SMaRt ran; nothing for a run from before the suite ran it. */
    private static String peer(RunInfo i) {
        if (!i.has("peer")) {
            return "";
        }
        if (!i.has("peer position")) {
            return "**BFT-SMaRt** (section above): " + i.get("peer") + ".\n\n";
        }
        return "**BFT-SMaRt** (section above) ran " + i.get("peer position") + ": it and C-I `mac` are measured back"
                + " to back on the same machine, with nothing else of the suite running. Command: `" + i.get("peer")
                + "`, with C = " + i.get("peer clients") + ". Each run of `run.py` starts its own 4 replica JVMs, warms"
                + " them with 8 clients of W operations each, runs C clients of N operations and measures the second"
                + " half of each client's. A run that fails is tried once more (Maven's colour codes switched off:"
                + " they broke a first build of BFT-SMaRt); one that fails twice, runs past its timeout, or finds"
                + " BFT-SMaRt's ports taken for 4 minutes becomes a skipped row with its reason, and the suite goes"
                + " on.\n\n";
    }

    static String text(RunInfo i) {
        return "## Method\n\n"
                + "**Machine.** " + i.get("cpu") + ", " + i.get("cores") + " cores seen by the JVM, "
                + i.get("memory") + ", " + i.get("os") + "; " + i.get("java") + ". The machine is shared with other"
                + " engineers' builds: its one-minute load average was " + i.get("load at start") + " when the run"
                + " started and " + i.get("load at end") + " when it ended (each point's is in its row).\n\n"
                + "**Processes.** Every node is its own JVM (`./bftws replica`, flags `" + i.get("node jvm flags")
                + "`), started by the suite as `./bftws testbed` starts them, on free loopback ports, with its own"
                + " Axis2 repository; the clients are threads of the suite's JVM (flags `" + i.get("client jvm flags")
                + "`), each with its own WS-RM sequence, calling the group endpoint through Axis2's ServiceClient"
                + " with the bftws module engaged (multicast, WS-RM, signing, f+1 matching replies). All of them"
                + " share the machine's cores.\n\n"
                + "**Setups.** Configuration I: 4 replicas that order (PBFT, f=1) and execute. II: 4 order, 3 of"
                + " them execute. III: 4 agreement nodes and 3 execution nodes (7 JVMs). Baselines, in the same run:"
                + " *no replication, unsigned*: one node with the bftws module and profile `none`, a group of one"
                + " node, which is plain WS-RM (exactly as a `bft=\"false\"` group): this is both the paper's \"no"
                + " replication, no signing\" and the WS-RM-only baseline; *no replication, signed (mac or wssec)*:"
                + " the same node with that profile, so client requests and replies are WS-Security signed and"
                + " verified as in the replicated runs (a single node has no replica-to-replica traffic, so its `mac`"
                + " and `wssec` runs differ only by chance). The 3-tier echo (paper 4.1.2, Fig. 8b): 4 replicas of the echo"
                + " relay (C-I) whose service relays each request to 4 echo replicas (C-I) as a nested request and"
                + " answers with their reply; the echo group orders a nested request once 2 relay replicas sent"
                + " identical copies (p+1, paper 3.4); 8 JVMs plus the client on this machine's cores.\n\n"
                + "**Workload** (paper, section 4.1). Each request is an `echo` element with N `item` children built"
                + " with AXIOM; the service returns the same items; the client checks every item of every reply and"
                + " sends its next request at once (no think time). Each point has C client threads and N elements.\n\n"
                + "**Warm-up and samples.** When a setup's nodes have started, " + i.get("setup warm-up")
                + " (at the setup's largest client count) let the JIT compile the request path; then each point"
                + " sends " + i.get("point warm-up") + " of its own (they also open its sequences), then "
                + i.get("samples") + " measured requests shared by its clients. A point stops sending after "
                + i.get("measure cap") + " even with fewer samples (its row then says \"of " + i.get("samples")
                + "\" and \"time cap\"); requests still unanswered at twice the cap count as failed, and a warm-up"
                + " not over at twice its cap plus 10 s ends the point with nothing measured, so a degraded setup"
                + " cannot hold up the suite. Points of a setup run on the same nodes, in order of size and clients,"
                + " and the headline point (10 elements, 8 clients) last: by then the setup has served every other"
                + " point, so the JIT has compiled what a long-running service runs (measured first, it would be"
                + " its setup's coldest point).\n\n"
                + "**Figures.** Latency: each request timed at its client (System.nanoTime), over the successful"
                + " samples: mean, p50, p99 (nearest rank). Throughput at the clients: successful requests / wall time"
                + " of the measured window (from the moment every client finished its warm-up to the moment the last"
                + " measured request returned). Throughput at the service: the executed-request counters of the"
                + " executing nodes (`stats`, read at the window's edges), the (f+1)-th busiest node's count / the"
                + " window. CPU: each process's CPU time (Linux, through ProcessHandle) at the window's edges, in"
                + " seconds per 1,000 requests; the client figure is the suite's whole JVM. Projected throughput with"
                + " one host per node = 1 / (the largest node CPU time per request): what the paper's testbed of"
                + " separate hosts measured, assuming the network is not the bottleneck. Ratios compare a replicated"
                + " point with the unreplicated node of the same profile at the same size and clients.\n\n"
                + peer(i)
                + (i.has("measured again") ? "**Measured again** after the suite's run (`--only`): "
                        + i.get("measured again") + ". The other setups' rows are the suite's run.\n\n" : "")
                + "**Rerun.** `./bftws bench` (the full suite, " + "writes `docs/bench/` and this page; "
                + i.get("points") + " points took " + i.get("duration") + " here), `./bftws bench --quick`"
                + " (about 4 minutes after the build), `./bftws bench --report-only` (redraws plots and page from"
                + " the CSV and peer.csv), `./bftws bench --only bftsmart` (BFT-SMaRt again, the other rows kept),"
                + " `--no-peer` (without BFT-SMaRt). `--sizes`, `--clients`, `--profiles`, `--configs`, `--samples`, `--warmup`, `--cap`"
                + " narrow or change the grid; `BFTWS_REPLICA_JAVA_OPTS` adds node JVM flags (e.g. a Flight Recorder"
                + " file per node: `-XX:StartFlightRecording=filename=/tmp/{name}.jfr`).\n";
    }
}
