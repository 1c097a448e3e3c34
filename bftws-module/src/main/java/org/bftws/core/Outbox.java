package org.bftws.core;

import java.util.ArrayList;
import java.util.List;

/** Collects the outputs of one input, in order. */
final class Outbox {

    private static final Destination AGREEMENT = new Destination.AgreementNodes();
    private static final Destination ALL = new Destination.AllNodes();
    private static final Destination EXECUTION = new Destination.ExecutionNodes();

    private final List<Output> outputs = new ArrayList<>();

    void toNode(int node, Message m) {
        outputs.add(new Output.Send(new Destination.Node(node), m));
    }

    void toAgreementNodes(Message m) {
        outputs.add(new Output.Send(AGREEMENT, m));
    }

    void toAllNodes(Message m) {
        outputs.add(new Output.Send(ALL, m));
    }

    void toExecutionNodes(Message m) {
        outputs.add(new Output.Send(EXECUTION, m));
    }

    void toClient(String client, Message m) {
        outputs.add(new Output.Send(new Destination.Client(client), m));
    }

    void add(Output o) {
        outputs.add(o);
    }

    void drop(Object what, String reason) {
        outputs.add(new Output.Dropped(String.valueOf(what), reason, what instanceof Message m ? m.sender() : -1));
    }

    List<Output> drain() {
        List<Output> copy = List.copyOf(outputs);
        outputs.clear();
        return copy;
    }
}
