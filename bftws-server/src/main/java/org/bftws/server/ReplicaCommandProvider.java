package org.bftws.server;

import picocli.CommandLine;

/**
 * A {@code replica} command line other than the product's, which {@link BftwsServer#main} runs when one is on the
 * classpath (found with {@link java.util.ServiceLoader}). The checkout's {@code ./bftws replica} brings the echo
 * sample (deployed without {@code --services}), its state queries and the testing option {@code --byzantine} this
 * way, from the tools module; a host's {@code java -jar bftws-server-VERSION.jar} has none and runs the product's.
 */
public interface ReplicaCommandProvider {

    /** The replica command line: a {@link ReplicaCommand} with the launcher's {@link SampleService} and options. */
    CommandLine replica();
}
