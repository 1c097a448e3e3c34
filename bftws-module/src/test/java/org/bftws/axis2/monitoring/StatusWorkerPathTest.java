package org.bftws.axis2.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The status worker finds a request's path in either form of request target HTTP/1.1 allows. */
class StatusWorkerPathTest {

    @Test
    void theOriginFormLosesItsQueryAndFragment() {
        assertEquals("/bftws/status", StatusWorker.path("/bftws/status?pretty=1"));
        assertEquals("/bftws/status", StatusWorker.path("/bftws/status#x"));
        assertEquals("/axis2/services/EchoService", StatusWorker.path("/axis2/services/EchoService"));
    }

    @Test
    void theAbsoluteFormGivesItsPathAndAnythingElseIsLeftToAxis2() {
        assertEquals("/bftws/status", StatusWorker.path("http://10.0.0.1:8080/bftws/status?x"));
        assertNull(StatusWorker.path("*"), "OPTIONS * is Axis2's to answer");
        assertNull(StatusWorker.path(null));
    }
}
