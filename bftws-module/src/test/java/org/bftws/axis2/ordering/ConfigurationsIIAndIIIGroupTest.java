package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.client.ServiceClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configurations II and III over real HTTP (paper 3.3.2, 3.3.3): agreement-only nodes order requests to a service
 * they do not run; the executing nodes (II: 2f+1 of the agreement nodes; III: 2f+1 separate execution nodes) run it
 * and answer; every executor ends in the same order-dependent state.
 */
class ConfigurationsIIAndIIIGroupTest {

    @TempDir
    Path dir;

    private void appendsReachEveryExecutorInOneOrder(String configuration, int[] executors) throws Exception {
        try (BftTestGroup g = BftTestGroup.start(dir, "mac", BftTestGroup.protocol(4, "2s"), configuration)) {
            ServiceClient a = g.client();
            ServiceClient b = g.client();
            for (int i = 1; i <= 5; i++) {
                OMElement ra = BftTestGroup.call(a, BftTestGroup.append("a" + i));
                OMElement rb = BftTestGroup.call(b, BftTestGroup.append("b" + i));
                assertEquals(Integer.toString(2 * i - 1), BftTestGroup.child(ra, "count"));
                assertEquals(Integer.toString(2 * i), BftTestGroup.child(rb, "count"));
            }
            String first = ConfigurationIGroupTest.waitForCount(g, executors[0], 10);
            for (int e : executors) {
                assertEquals(first, ConfigurationIGroupTest.waitForCount(g, e, 10), g.names.get(e));
            }
        }
    }

    @Test
    void inConfigurationIITheAgreementOnlyNodeOrdersWithoutRunningTheServiceAndTheOthersAgree() throws Exception {
        appendsReachEveryExecutorInOneOrder("II", new int[] {0, 1, 2});
    }

    @Test
    void inConfigurationIIIAgreementNodesOrderAndSeparateExecutionNodesExecuteAndAnswer() throws Exception {
        appendsReachEveryExecutorInOneOrder("III", new int[] {4, 5, 6});
    }
}
