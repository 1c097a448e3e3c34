package org.bftws.bench;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.samples.kv.KvRequests;
import org.bftws.samples.kv.KvService;

/**
 * Reads the key-value sample's state inside a replica JVM, from the service instance the replica executes requests
 * on, for the {@code state} and {@code entries} queries of {@link EchoReplica} when the node runs {@code KvService}
 * (the soak's {@code --service kv}). As with {@link EchoStateProbe}, the instance's own {@code get_state} is
 * synchronised with its operations, so a reading is a state between two executions. The reading's count is the
 * {@value KvLoad#COUNTER} key's value, its digest a SHA-256 over every {@code key=value} in key order, its entries
 * those {@code key=value} pairs.
 */
final class KvStateProbe {

    private KvStateProbe() {
    }

    /** The state, or null when the kv service is not deployed or has executed nothing yet (no instance). */
    static EchoStateProbe.Reading read(ConfigurationContext context) throws AxisFault {
        if (!(EchoStateProbe.serviceObject(context, TestbedDeployment.KV_SERVICE) instanceof KvService kv)) {
            return null;
        }
        OMElement state = kv.get_state(KvRequests.getState()).getFirstChildWithName(new QName(KvService.NS, "state"));
        List<String> entries = new ArrayList<>();
        long counter = 0;
        for (Iterator<OMElement> it = state.getChildElements(); it.hasNext(); ) {
            OMElement account = it.next();
            String key = account.getAttributeValue(new QName("key"));
            String value = account.getText().trim();
            entries.add(key + "=" + value);
            if (key.equals(KvLoad.COUNTER)) {
                counter = Long.parseLong(value);
            }
        }
        return new EchoStateProbe.Reading(Math.toIntExact(counter), digest(entries), List.copyOf(entries));
    }

    private static String digest(List<String> entries) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String e : entries) {
                sha.update(e.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) '\n');
            }
            return HexFormat.of().formatHex(sha.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
