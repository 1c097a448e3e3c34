package org.bftws.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.axis2.AxisFault;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.rm.RmSource;

/**
 * One ServiceClient per calling thread (ServiceClient is not thread-safe), each with its own WS-RM sequence key, so
 * threads never share a sequence: a replica delivers a sequence's messages in order, and one thread's slow call must
 * not hold back another's. Remembers which (endpoint, sequence key) pairs were used, for closing.
 */
final class CallerClients {
    private static final String[] MODULES = {"addressing", "bftws"};

    private final ConfigurationContext context;
    private final Map<Long, ServiceClient> byThread = new ConcurrentHashMap<>();
    private final Set<List<String>> used = ConcurrentHashMap.newKeySet();

    CallerClients(ConfigurationContext context) {
        this.context = context;
    }

    /** The calling thread's client, created (with addressing and bftws engaged) on its first call. */
    ServiceClient forCurrentThread(String endpoint) throws AxisFault {
        long thread = Thread.currentThread().getId();
        ServiceClient client = byThread.get(thread);
        if (client == null) {
            client = create(sequenceKey(thread));
            byThread.put(thread, client);
        }
        used.add(List.of(endpoint, sequenceKey(thread)));
        return client;
    }

    private ServiceClient create(String sequenceKey) throws AxisFault {
        ServiceClient client = new ServiceClient(context, null);
        for (String module : MODULES) {
            if (!client.getAxisService().isEngaged(module)) {
                if (context.getAxisConfiguration().getModule(module) == null) {
                    client.cleanup();
                    throw new AxisFault("bftws: Axis2 module '" + module + "' not found: put "
                            + ("bftws".equals(module) ? "bftws-module" : "org.apache.axis2:addressing:1.8.2 (type mar)")
                            + " on the classpath, or give a repository whose modules directory holds it");
                }
                client.engageModule(module);
            }
        }
        Options options = new Options();
        options.setProperty(RmSource.SEQUENCE_KEY, sequenceKey);
        client.setOptions(options);
        return client;
    }

    private static String sequenceKey(long thread) {
        return "bftclient-thread-" + thread;
    }

    /** Every (endpoint, sequence key) a call used. */
    List<List<String>> sequencesUsed() {
        return new ArrayList<>(used);
    }

    void cleanup() {
        for (ServiceClient c : byThread.values()) {
            try {
                c.cleanup();
            } catch (AxisFault e) {
                // the engine stops right after; nothing is left to release
            }
        }
        byThread.clear();
    }
}
