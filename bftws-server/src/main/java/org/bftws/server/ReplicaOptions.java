package org.bftws.server;

import java.nio.file.Path;

/**
 * {@code replica} options ({@link ReplicaCommand}).
 *
 * @param id          the agreement node with this id in the group (Configurations I and II: every node)
 * @param name        or the node with this name (also execution nodes of Configuration III)
 * @param conf        the deployment's replicas.xml
 * @param group       the service whose group the node belongs to; needed only when replicas.xml has several groups
 * @param services    a directory of .aar service archives to deploy (null: the launcher's sample service)
 * @param runDir      where the node's Axis2 repository is written
 * @param ignoreStdin keep running when standard input ends (a detached replica); else end of input stops it
 * @param container   the HTTP server the node answers on: Axis2's SimpleHTTPServer or AxisServlet in Jetty
 */
record ReplicaOptions(Integer id, String name, Path conf, String group, Path services, Path runDir,
                      boolean ignoreStdin, NodeContainer container) {

    /** The options of command line {@code args}; a bad one throws picocli's ParameterException. */
    static ReplicaOptions parse(String... args) {
        return Cli.parse(new ReplicaCommand(), args).options();
    }

    /** How the node was named on the command line, for messages. */
    String selector() {
        return id != null ? "--id " + id : "--name " + name;
    }
}
