package org.bftws.server;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.engine.AxisConfiguration;
import org.bftws.config.GroupConfig;
import org.bftws.config.NodeConfig;

/**
 * A service a launcher deploys on a replica whose command line names no {@code --services}, with the commands of the
 * replica's standard input that read that service's state. The product's {@code replica} has none (a deployment
 * names its archives); the checkout's {@code ./bftws replica} and the testbed bring the echo sample, whose
 * {@code state} and {@code entries} answers the fault tests compare across replicas.
 */
public interface SampleService {

    /** Writes the service's .aar archive(s) into a node's {@code services} directory. */
    void writeArchives(Path servicesDirectory) throws IOException;

    /** Standard-input commands that answer with one line about the service's state, by command word. */
    Map<String, StateQuery> queries();

    /**
     * Why the launcher refuses to run {@code node} of {@code group} as its command line asks (a testing option that
     * replicas.xml does not allow for that node: the replica exits with status 2 and this one line), or null.
     */
    default String refusal(GroupConfig group, NodeConfig node) {
        return null;
    }

    /**
     * The node's Axis2 configuration, read from its axis2.xml, before the bftws module initialises on it and before
     * the node serves anything: where a launcher's testing tool adds its handlers or module parameters (the
     * testbed's Byzantine replicas, docs/byzantine-testing.md). The product's replica has no such tool.
     */
    default void configure(AxisConfiguration axis, GroupConfig group, NodeConfig node) throws AxisFault {
    }

    /** One standard-input command about the deployed service's state. */
    @FunctionalInterface
    interface StateQuery {
        /** The answer, one line that starts with the command word and the node's name. */
        String answer(String node, ConfigurationContext context) throws AxisFault;
    }
}
