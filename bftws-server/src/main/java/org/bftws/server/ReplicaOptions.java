package org.bftws.server;

import java.nio.file.Path;

/**
 * {@code ./bftws replica} options.
 *
 * @param id          the agreement node with this id in the group (Configurations I and II: every node)
 * @param name        or the node with this name (also execution nodes of Configuration III)
 * @param conf        the deployment's replicas.xml
 * @param group       the service whose group the node belongs to; needed only when replicas.xml has several groups
 * @param services    a directory of .aar service archives to deploy (null: the launcher's sample service)
 * @param runDir      where the node's Axis2 repository is written
 * @param ignoreStdin keep running when standard input ends (a detached replica); else end of input stops it
 */
record ReplicaOptions(Integer id, String name, Path conf, String group, Path services, Path runDir,
                      boolean ignoreStdin) {

    static final String USAGE = """
            usage: ./bftws replica (--id I | --name NAME) [--conf conf/replicas.xml] [--group SERVICE]
                                   [--services DIR] [--run-dir DIR] [--ignore-stdin]
              runs one node of replicas.xml on the port of its endpoints (loopback hosts: bound to loopback only);
              prints 'ready NAME PORT' once it serves; stops on SIGTERM, Ctrl-C, 'stop' or end of standard input
              (unless --ignore-stdin); on standard input 'stats' prints its counters, 'measurements' its checkpoint,
              state transfer and view change timings, 'state' and 'entries' the echo sample's state.
              --id I          the agreement node with id I (--name for Configuration III execution nodes)
              --group SERVICE the group of that service, when replicas.xml has several
              --services DIR  deploy the .aar archives of DIR instead of the echo sample
              --run-dir DIR   where to write the node's Axis2 repository (default .bftws/replica/NAME)""";

    static ReplicaOptions parse(String[] argv) {
        Arguments args = new Arguments(argv);
        Integer id = null;
        String name = null;
        Path conf = Path.of("conf", "replicas.xml");
        String group = null;
        Path services = null;
        Path runDir = null;
        boolean ignoreStdin = false;
        while (args.hasNext()) {
            String option = args.option();
            switch (option) {
                case "--id" -> id = args.integer(option, 0, 10_000);
                case "--name" -> name = args.value(option);
                case "--conf" -> conf = args.path(option);
                case "--group" -> group = args.value(option);
                case "--services" -> services = args.path(option);
                case "--run-dir" -> runDir = args.path(option);
                case "--ignore-stdin" -> ignoreStdin = true;
                default -> throw new UsageException("unknown option " + option);
            }
        }
        if ((id == null) == (name == null)) {
            throw new UsageException("say which node to run with --id I or --name NAME (one of them)");
        }
        return new ReplicaOptions(id, name, conf, group, services, runDir, ignoreStdin);
    }

    /** How the node was named on the command line, for messages. */
    String selector() {
        return id != null ? "--id " + id : "--name " + name;
    }
}
