package org.bftws.wire;

import javax.xml.namespace.QName;

/** The XML vocabulary of PBFT messages on the wire (docs/wire.md). Attributes are unqualified. */
public final class WireNames {
    /** Namespace of every PBFT element; the trailing 1 is the format version, as in the canonical form. */
    public static final String NS = "urn:bftws:pbft:1";
    public static final String PREFIX = "pbft";

    /** The SOAP body element that carries several messages to one destination. */
    public static final QName MESSAGES = new QName(NS, "Messages", PREFIX);

    static final String REF = "Ref";
    static final String REQUEST = "Request";
    static final String CERTIFICATE = "Certificate";
    /** In a new-view: one view-change it is built on, by sender and digest. */
    static final String VIEW_CHANGE_REF = "ViewChangeRef";
    static final String WANT = "Want";
    static final String STATE = "State";

    static final String VIEW = "view";
    static final String SEQ = "seq";
    static final String DIGEST = "digest";
    static final String FROM = "from";
    static final String SIG = "sig";
    static final String CLIENT = "client";
    static final String NUMBER = "number";
    static final String STABLE_SEQ = "stableSeq";
    static final String STABLE_DIGEST = "stableDigest";
    static final String VIEW_CHANGING = "viewChanging";
    static final String LAST_EXECUTED = "lastExecuted";
    static final String TARGET_VIEW = "targetView";
    static final String VIEW_CHANGES_FROM = "viewChangesFrom";
    static final String AFTER_SEQ = "afterSeq";
    /** A batch's time: the primary's clock reading in ms when it proposed it (agreed time, docs/protocol.md). */
    static final String TIME = "time";

    private WireNames() {
    }
}
