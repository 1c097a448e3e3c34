package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.apache.axis2.client.ServiceClient;
import org.bftws.axis2.monitoring.StatusHttp;
import org.bftws.monitoring.JmxRegistrations;
import org.bftws.samples.kv.KvRequests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica whose service refuses the state the group transfers to it: it says so wherever an operator looks (the
 * status page and its HTTP status, JMX, the stats counters) and keeps fetching, so it executes again as soon as the
 * group has a state it can install. Four replicas of the key-value sample in one JVM over loopback; replica3 restarts
 * empty with an older version of the service ({@link CappedKvService}) that cannot hold balances above 1000.
 */
class StateInstallFailureTest {

    @TempDir
    Path dir;

    @Test
    void aReplicaThatCannotInstallAStateSaysSoOnItsStatusPageAndJmxAndRecoversOnceTheGroupOffersOneItCan()
            throws Exception {
        try (KvGroup g = KvGroup.start(dir, "mac", BftTestGroup.protocol(4, "5s"))) {
            ServiceClient client = g.client();
            KvGroup.call(client, KvRequests.put("alice", 100));
            g.stop(3);
            KvGroup.call(client, KvRequests.put("bob", 5_000)); // more than replica3's service can hold
            for (int i = 0; i < 8; i++) {
                KvGroup.call(client, KvRequests.transfer("bob", "alice", 1));
            }
            deployCappedService(g.repository(3));
            g.restart(3);
            for (int i = 0; i < 8; i++) { // checkpoints tell replica3 how far behind it is: it fetches the state
                KvGroup.call(client, KvRequests.transfer("bob", "alice", 1));
            }

            HttpResponse<String> page = awaitStatus(g.port(3), 503);
            JsonObject replica = JsonParser.parseString(page.body()).getAsJsonObject().getAsJsonObject("replica");
            assertEquals(false, replica.get("executing").getAsBoolean(), page.body());
            String why = replica.get("notExecuting").getAsString();
            assertTrue(why.startsWith("set_state (installing the state at ")
                    && why.contains("refused the state: this version holds balances up to 1000") && !why.contains("<"),
                    why);
            MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = JmxRegistrations.replicaName("KvService", "replica3");
            assertEquals(false, jmx.getAttribute(name, "Executing"));
            assertTrue(String.valueOf(jmx.getAttribute(name, "NotExecuting")).contains("set_state"));
            assertTrue(g.node(3).replica().counters().getOrDefault("execution failures", 0L) >= 1);
            assertEquals(200, StatusHttp.send(g.port(0), "GET", "/bftws/status").statusCode(),
                    "the others execute");

            // the group moves to a state the older version can hold: a later stable checkpoint installs there
            KvGroup.call(client, KvRequests.put("bob", 10));
            int calls = 0;
            for (long deadline = System.nanoTime() + 90_000_000_000L; System.nanoTime() < deadline
                    && StatusHttp.send(g.port(3), "GET", "/bftws/status").statusCode() != 200; calls++) {
                KvGroup.call(client, KvRequests.put("after-" + calls, 1));
                Thread.sleep(50);
            }
            awaitStatus(g.port(3), 200);
            assertEquals(true, jmx.getAttribute(name, "Executing"));
            byte[] expected = g.state(0);
            for (int t = 0; t < 200 && !java.util.Arrays.equals(expected, g.state(3)); t++) {
                Thread.sleep(50);
            }
            assertArrayEquals(expected, g.state(3), new String(g.state(3), StandardCharsets.UTF_8));
            Map<String, Long> counters = g.node(3).replica().counters();
            assertTrue(counters.getOrDefault("state transfers", 0L) >= 1, counters.toString());
        }
    }

    /** Replaces the key-value archive in {@code repository}'s services/ with one whose class is the capped one. */
    private static void deployCappedService(Path repository) throws Exception {
        Path aar = repository.resolve("services").resolve("KvService.aar");
        try (FileSystem zip = FileSystems.newFileSystem(URI.create("jar:" + aar.toUri()), Map.of())) {
            Path xml = zip.getPath("META-INF", "services.xml");
            Files.writeString(xml, Files.readString(xml).replace("org.bftws.samples.kv.KvService<",
                    CappedKvService.class.getName() + "<"));
        }
    }

    /** Polls replica's status page until it answers {@code code} (60 s at most). */
    private static HttpResponse<String> awaitStatus(int port, int code) throws Exception {
        HttpResponse<String> r = null;
        for (int t = 0; t < 600; t++) {
            r = StatusHttp.send(port, "GET", "/bftws/status");
            if (r.statusCode() == code) {
                return r;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the status page never answered " + code + "; last: " + r.statusCode() + " "
                + r.body());
    }
}
