package org.bftws.axis2;

import java.util.List;

import org.apache.axiom.om.OMElement;

/** Test only: the echo sample's get_state request and its entries, for tests outside this package. */
public final class TestNodesAccess {
    private TestNodesAccess() {
    }

    public static OMElement getState() {
        return TestNodes.getState();
    }

    public static List<String> entries(OMElement getStateResponse) {
        return TestNodes.entries(getStateResponse);
    }
}
