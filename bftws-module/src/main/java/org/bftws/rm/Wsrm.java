package org.bftws.rm;

/**
 * Names of WS-ReliableMessaging 1.1 (OASIS, namespace {@value #NS}) used on the wire, and of the BFT-WS extension
 * element that carries the client's UUID inside CreateSequence.
 */
public final class Wsrm {
    public static final String NS = "http://docs.oasis-open.org/ws-rx/wsrm/200702";
    public static final String PREFIX = "wsrm";
    /** WS-Addressing 1.0, the version WS-RM 1.1 is used with here. */
    public static final String WSA_NS = "http://www.w3.org/2005/08/addressing";
    public static final String WSA_ANONYMOUS = WSA_NS + "/anonymous";
    /** Namespace of the BFT-WS extension element in CreateSequence ({@code bftws:ClientUUID}). */
    public static final String BFTWS_NS = "urn:bftws:wsrm:1";

    public static final String CREATE_SEQUENCE = NS + "/CreateSequence";
    public static final String CREATE_SEQUENCE_RESPONSE = NS + "/CreateSequenceResponse";
    public static final String CLOSE_SEQUENCE = NS + "/CloseSequence";
    public static final String CLOSE_SEQUENCE_RESPONSE = NS + "/CloseSequenceResponse";
    public static final String TERMINATE_SEQUENCE = NS + "/TerminateSequence";
    public static final String TERMINATE_SEQUENCE_RESPONSE = NS + "/TerminateSequenceResponse";
    public static final String SEQUENCE_ACKNOWLEDGEMENT = NS + "/SequenceAcknowledgement";
    public static final String ACK_REQUESTED = NS + "/AckRequested";
    /** Action of WS-RM faults (spec section 4). */
    public static final String FAULT = NS + "/fault";

    private Wsrm() {
    }

    /** True for the action of a WS-RM protocol message, which the RM layer handles itself. */
    public static boolean isControlAction(String action) {
        return action != null && action.startsWith(NS + "/");
    }
}
