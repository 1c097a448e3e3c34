package org.bftws.bench.nemesis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hosts on network stacks of their own: one network namespace per host, each with one address on a bridge this
 * creates in the root namespace (a veth pair per host), made with {@code ip} (iproute2) and removed by
 * {@link #close()}. Names and the /24 carry this JVM's PID (links {@code bnm<pid>...}, namespaces
 * {@code bftws-nemesis-<pid>-<i>}), so two runs never collide, and a run that was killed leaves nothing a later one
 * does not remove
 * ({@link #removeLeftovers()}: namespaces and links of runs whose process is gone).
 *
 * <p>A partition cuts pairs of hosts: a {@code blackhole} route to the other's address in each one's namespace, so
 * packets between them are dropped both ways (a new connection fails at once, an open one stops carrying data)
 * while every other pair still talks. Healing deletes those routes. It needs no firewall (iptables, nftables): only
 * {@code ip}.
 */
public final class Network implements AutoCloseable {

    private static final String NAMESPACE_PREFIX = "bftws-nemesis-";
    private static final String LINK_PREFIX = "bnm";
    private static final Pattern NAMESPACE = Pattern.compile("^" + NAMESPACE_PREFIX + "(\\d+)-\\d+");
    private static final Pattern LINK = Pattern.compile("^\\d+: (" + LINK_PREFIX + "(\\d+)[a-z0-9]*)[@:]");
    private static final long COMMAND_TIMEOUT_SECONDS = 30;
    /** CAP_NET_ADMIN and CAP_SYS_ADMIN's bits in /proc/self/status's CapEff (linux/capability.h). */
    private static final int CAP_NET_ADMIN = 12;
    private static final int CAP_SYS_ADMIN = 21;

    private final long pid;
    private final String subnet;
    private final int hosts;
    private final Set<Cut> cuts = new HashSet<>();
    private boolean closed;

    /** A pair of hosts that cannot reach each other, lower index first. */
    public record Cut(int a, int b) {
        public Cut {
            if (a == b || a < 0 || b < 0) {
                throw new IllegalArgumentException("a cut needs two different hosts, not " + a + " and " + b);
            }
            if (a > b) {
                int t = a;
                a = b;
                b = t;
            }
        }
    }

    private Network(long pid, String subnet, int hosts) {
        this.pid = pid;
        this.subnet = subnet;
        this.hosts = hosts;
    }

    /**
     * Why namespaces cannot be made here, in one line, or empty when they can: this needs Linux, root with
     * CAP_SYS_ADMIN (to make a namespace) and CAP_NET_ADMIN (links, addresses, routes), and the {@code ip} command.
     */
    public static Optional<String> refusal() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return Optional.of("network namespaces need Linux (this is " + System.getProperty("os.name") + ")");
        }
        Optional<String> ip = onPath("ip");
        if (ip.isEmpty()) {
            return Optional.of("no 'ip' command (iproute2) on the PATH to make network namespaces with");
        }
        long uid = uid();
        if (uid != 0) {
            return Optional.of("making network namespaces needs root (running as uid " + uid + ")");
        }
        List<String> missing = new ArrayList<>();
        long effective = status("CapEff:").map(v -> Long.parseUnsignedLong(v, 16)).orElse(0L);
        if ((effective & (1L << CAP_SYS_ADMIN)) == 0) {
            missing.add("CAP_SYS_ADMIN");
        }
        if ((effective & (1L << CAP_NET_ADMIN)) == 0) {
            missing.add("CAP_NET_ADMIN");
        }
        if (!missing.isEmpty()) {
            return Optional.of("root here lacks " + String.join(" and ", missing) + ", which making network "
                    + "namespaces needs (a container without privileges, or capabilities dropped)");
        }
        return Optional.empty();
    }

    /** The directory on the PATH that holds {@code command}, as the command's path. */
    static Optional<String> onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, command);
            if (Files.isExecutable(p)) {
                return Optional.of(p.toString());
            }
        }
        return Optional.empty();
    }

    private static long uid() {
        try {
            return status("Uid:").map(v -> Long.parseLong(v.split("\\s+")[1])).orElse(-1L); // the effective uid
        } catch (RuntimeException e) {
            return -1; // unknown: refused as not root
        }
    }

    /** The value of a field of /proc/self/status, or empty when it cannot be read (then it counts as missing). */
    private static Optional<String> status(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
                if (line.startsWith(field)) {
                    return Optional.of(line.substring(field.length()).trim());
                }
            }
        } catch (IOException e) {
            // unknown
        }
        return Optional.empty();
    }

    /**
     * Creates {@code hosts} namespaces on a new bridge; on failure removes what it made and says which command
     * failed and why.
     */
    public static Network create(int hosts) throws IOException, InterruptedException {
        if (hosts < 1 || hosts > 200) {
            throw new IllegalArgumentException("hosts must be 1..200, not " + hosts);
        }
        Optional<String> refusal = refusal();
        if (refusal.isPresent()) {
            throw new IOException(refusal.get());
        }
        removeLeftovers();
        long pid = ProcessHandle.current().pid();
        Network n = new Network(pid, freeSubnet(pid), hosts);
        try {
            n.build();
        } catch (IOException | InterruptedException | RuntimeException e) {
            n.close();
            throw e;
        }
        return n;
    }

    /** A 10.x.y.0/24 taken from the PID that no interface of the root namespace uses yet. */
    private static String freeSubnet(long pid) throws IOException, InterruptedException {
        String used = run(List.of("ip", "-o", "-4", "addr", "show"));
        for (int k = 0; k < 4096; k++) {
            long v = (pid + k * 7919L) % 16384;
            String candidate = "10." + (64 + v / 256) + "." + (v % 256);
            if (!used.contains(" " + candidate + ".")) {
                return candidate;
            }
        }
        throw new IOException("no free 10.64.0.0/10 subnet for the nemesis's bridge");
    }

    private void build() throws IOException, InterruptedException {
        run(List.of("ip", "link", "add", bridge(), "type", "bridge"));
        run(List.of("ip", "link", "set", bridge(), "up"));
        for (int i = 0; i < hosts; i++) {
            run(List.of("ip", "netns", "add", namespace(i)));
            run(List.of("ip", "link", "add", hostLink(i), "type", "veth", "peer", "name", "eth0", "netns",
                    namespace(i)));
            run(List.of("ip", "link", "set", hostLink(i), "master", bridge(), "up"));
            run(inside(i, "ip", "addr", "add", address(i) + "/24", "dev", "eth0"));
            run(inside(i, "ip", "link", "set", "eth0", "up"));
            run(inside(i, "ip", "link", "set", "lo", "up"));
        }
    }

    /** Host {@code i}'s address on the bridge. */
    public String address(int i) {
        check(i);
        return subnet + "." + (i + 1);
    }

    /** Host {@code i}'s namespace. */
    public String namespace(int i) {
        check(i);
        return NAMESPACE_PREFIX + pid + "-" + i;
    }

    /** What a command line starts with to run in host {@code i}'s namespace. */
    public List<String> prefix(int i) {
        return List.of("ip", "netns", "exec", namespace(i));
    }

    public int hosts() {
        return hosts;
    }

    /** The bridge's name. */
    public String bridge() {
        return LINK_PREFIX + pid + "br";
    }

    private String hostLink(int i) {
        return LINK_PREFIX + pid + "h" + i;
    }

    private List<String> inside(int i, String... command) {
        List<String> c = new ArrayList<>(prefix(i));
        c.addAll(List.of(command));
        return c;
    }

    private void check(int i) {
        if (i < 0 || i >= hosts) {
            throw new IllegalArgumentException("no host " + i + " (hosts 0.." + (hosts - 1) + ")");
        }
    }

    /** Makes exactly {@code wanted} the cut pairs: cuts what is new, heals what is no longer wanted. */
    public synchronized void partition(Set<Cut> wanted) throws IOException, InterruptedException {
        for (Cut c : wanted) {
            check(c.a());
            check(c.b());
        }
        for (Cut c : new ArrayList<>(cuts)) {
            if (!wanted.contains(c)) {
                route("del", c.a(), c.b());
                route("del", c.b(), c.a());
                cuts.remove(c);
            }
        }
        for (Cut c : wanted) {
            if (!cuts.contains(c)) {
                route("add", c.a(), c.b());
                route("add", c.b(), c.a());
                cuts.add(c);
            }
        }
    }

    /** Every pair talks again. */
    public void heal() throws IOException, InterruptedException {
        partition(Set.of());
    }

    /** The pairs cut now. */
    public synchronized Set<Cut> cuts() {
        return Set.copyOf(cuts);
    }

    private void route(String verb, int from, int to) throws IOException, InterruptedException {
        run(inside(from, "ip", "route", verb, "blackhole", address(to) + "/32"));
    }

    /** Removes the namespaces, links and bridge; safe to call twice, and from a shutdown hook. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < hosts; i++) {
            quietly(List.of("ip", "link", "del", hostLink(i)));
            quietly(List.of("ip", "netns", "del", namespace(i)));
        }
        quietly(List.of("ip", "link", "del", bridge()));
        removeOf(pid);
    }

    /** Namespaces and links named for a nemesis run whose process is gone (it was killed before it cleaned up). */
    public static void removeLeftovers() throws IOException, InterruptedException {
        Set<Long> pids = new TreeSet<>();
        for (String line : run(List.of("ip", "netns", "list")).split("\n")) {
            Matcher m = NAMESPACE.matcher(line.trim());
            if (m.find()) {
                pids.add(Long.parseLong(m.group(1)));
            }
        }
        for (String line : run(List.of("ip", "-o", "link", "show")).split("\n")) {
            Matcher m = LINK.matcher(line.trim());
            if (m.find()) {
                pids.add(Long.parseLong(m.group(2)));
            }
        }
        for (long p : pids) {
            if (p != ProcessHandle.current().pid() && ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false)) {
                continue; // another run's, still going
            }
            removeOf(p);
        }
    }

    /** Whatever namespaces and links carry {@code pid}'s name. */
    private static void removeOf(long pid) {
        try {
            for (String line : run(List.of("ip", "-o", "link", "show")).split("\n")) {
                Matcher m = LINK.matcher(line.trim());
                if (m.find() && Long.parseLong(m.group(2)) == pid) {
                    quietly(List.of("ip", "link", "del", m.group(1)));
                }
            }
            for (String line : run(List.of("ip", "netns", "list")).split("\n")) {
                Matcher m = NAMESPACE.matcher(line.trim());
                if (m.find() && Long.parseLong(m.group(1)) == pid) {
                    quietly(List.of("ip", "netns", "del", m.group()));
                }
            }
        } catch (IOException e) {
            // nothing more can be listed: what is left is reported by the next run's removeLeftovers
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The namespaces and links a run in process {@code pid} made that exist now, by name. */
    public static List<String> of(long pid) throws IOException, InterruptedException {
        List<String> names = new ArrayList<>();
        for (String line : run(List.of("ip", "netns", "list")).split("\n")) {
            Matcher m = NAMESPACE.matcher(line.trim());
            if (m.find() && Long.parseLong(m.group(1)) == pid) {
                names.add(m.group());
            }
        }
        for (String line : run(List.of("ip", "-o", "link", "show")).split("\n")) {
            Matcher m = LINK.matcher(line.trim());
            if (m.find() && Long.parseLong(m.group(2)) == pid) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    private static void quietly(List<String> command) {
        try {
            run(command);
        } catch (IOException e) {
            // already gone
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs {@code command}; its output, or an IOException with the command and what it printed. */
    static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + ": no answer after " + COMMAND_TIMEOUT_SECONDS + " s");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (exit status " + p.exitValue() + "): "
                    + text.trim());
        }
        return text;
    }
}
