package org.bftws.axis2.standalone;

import org.bftws.axis2.node.BftwsNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Runs one Axis2 node in its own JVM: {@code NodeMain <repository> <axis2.xml> <port>}. Prints
 * {@code bftws node listening on <port>} once ready; on standard input, {@code stats} prints the node's WS-RM
 * counters as {@code stats <counters>}, and {@code stop} or end of input stops the node. Interop tests whose peer
 * libraries clash with Axis2's classpath (CXF) run the server this way.
 */
public final class NodeMain {

    private NodeMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: NodeMain <repository> <axis2.xml> <port>");
            System.exit(2);
        }
        try (NodeServer node = NodeServer.start(Path.of(args[0]), Path.of(args[1]), Integer.parseInt(args[2]))) {
            System.out.println("bftws node listening on " + node.port());
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null && !line.trim().equals("stop"); line = in.readLine()) {
                if (line.trim().equals("stats")) {
                    BftwsNode n = BftwsNode.of(node.context());
                    System.out.println("stats " + n.counters() + " delivered=" + n.destination().deliveredCount()
                            + " live=" + n.destination().sequences().size());
                    System.out.flush();
                }
            }
        }
        System.exit(0);
    }
}
