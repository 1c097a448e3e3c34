package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;

import org.junit.jupiter.api.Test;

import picocli.CommandLine.ParameterException;

/** {@code ./bftws testbed} options: the documented defaults, and a clear refusal for what cannot run. */
class TestbedOptionsTest {

    private static String refusal(String... args) {
        return assertThrows(ParameterException.class, () -> TestbedOptions.parse(args)).getMessage();
    }

    @Test
    void defaultsAreConfigurationIMacOneClientAThousandRequestsOfTenElements() {
        TestbedOptions o = TestbedOptions.parse(new String[0]);
        assertEquals(Configuration.I, o.configuration());
        assertEquals(SecurityProfile.MAC, o.security());
        assertEquals(1, o.clients());
        assertEquals(1000, o.requests());
        assertEquals(10, o.size());
        assertEquals(false, o.unreplicated());
    }

    @Test
    void everyClientThreadGetsAtLeastOneWarmUpRequestToCreateItsSequence() {
        assertEquals(8, TestbedOptions.parse(new String[] {"--clients", "8", "--warmup", "0"}).warmup());
    }

    @Test
    void whatCannotRunIsRefusedSayingWhy() {
        assertTrue(refusal("--tiers", "3", "--config", "II").contains("--tiers 3 runs two Configuration I groups"));
        assertTrue(refusal("--tiers", "3", "--security", "none").contains("told apart by their signatures"));
        assertEquals(3, TestbedOptions.parse(new String[] {"--tiers", "3"}).tiers());
        assertEquals(2, TestbedOptions.parse(new String[0]).tiers());
        assertTrue(refusal("--unreplicated", "--crash", "primary").contains("--unreplicated runs one node"));
        assertEquals("--clients must be between 1 and 256, not 0", refusal("--clients", "0"));
        assertEquals("--security must be one of mac, wssec, none, not 'rsa'", refusal("--security", "rsa"));
        assertEquals("--security must be one of mac, wssec, none, not 'rsa'", refusal("--security", "RSA"));
        assertEquals("--crash must be one of primary, backup, echo-primary, echo-backup, not 'all'",
                refusal("--crash", "all"));
        assertTrue(refusal("--crash", "echo-primary").contains("needs --tiers 3"), refusal("--crash", "echo-primary"));
        assertEquals(Configuration.II, TestbedOptions.parse("--config", "ii").configuration());
        assertTrue(refusal("--requests").contains("'--requests'"), refusal("--requests"));
        assertTrue(refusal("--replicas", "7").contains("'--replicas'"), refusal("--replicas", "7"));
    }

    @Test
    void twoServicesShareOneConfigurationThreeAgreementGroupAndNothingElse() {
        assertEquals(1, TestbedOptions.parse(new String[0]).services());
        TestbedOptions shared = TestbedOptions.parse("--config", "III", "--services", "2");
        assertEquals(2, shared.services());
        assertTrue(shared.describe().contains("shared by two services: echo and the key-value sample"),
                shared.describe());
        assertTrue(refusal("--services", "2").contains("--services 2 runs echo and kv on one Configuration III"
                + " agreement group: it needs --config III"), refusal("--services", "2"));
        assertTrue(refusal("--config", "III", "--services", "2", "--crash", "primary").contains("--crash"));
        assertTrue(refusal("--services", "3").contains("--services must be one of 1, 2"), refusal("--services", "3"));
    }

    @Test
    void theServiceIsTheEchoUnlessKvIsAskedForWhichRunsOneGroup() {
        assertEquals("echo", TestbedOptions.parse(new String[0]).service());
        TestbedOptions kv = TestbedOptions.parse(new String[] {"--service", "kv"});
        assertEquals("kv", kv.service());
        assertTrue(kv.describe().contains("the key-value sample"), kv.describe());
        assertTrue(refusal("--service", "bank").contains("--service"), refusal("--service", "bank"));
        assertTrue(refusal("--service", "kv", "--tiers", "3").contains("does not take --tiers 3"));
    }

    @Test
    void replicasRunOnAxis2sOwnServerUnlessJettyIsAskedFor() {
        assertEquals("simple", TestbedOptions.parse(new String[0]).container());
        TestbedOptions jetty = TestbedOptions.parse(new String[] {"--container", "jetty"});
        assertEquals("jetty", jetty.container());
        assertTrue(jetty.describe().contains("each node in AxisServlet in an embedded jetty"), jetty.describe());
        assertEquals("--container must be one of simple, jetty, not 'tomcat'", refusal("--container", "tomcat"));
    }

    @Test
    void protocolSettingsBecomeAttributesOfTheGroupsProtocolElement() {
        assertEquals("<protocol batchMaxDelay=\"20ms\" maxBatchesInFlight=\"2\"/>",
                TestbedOptions.parse(new String[] {"--protocol", "batchMaxDelay=20ms, maxBatchesInFlight=2"}).protocol());
        assertEquals(null, TestbedOptions.parse(new String[0]).protocol());
        assertTrue(refusal("--protocol", "batchMaxDelay").contains("name=value pairs"));
        assertTrue(refusal("--protocol", "x=\"/><evil").contains("name=value pairs"));
    }

    @Test
    void tentativeSetsTentativeExecutionInTheProtocolElementBesideOtherSettings() {
        TestbedOptions on = TestbedOptions.parse("--tentative");
        assertTrue(on.tentative());
        assertEquals("<protocol tentativeExecution=\"true\"/>", on.protocol());
        assertTrue(on.describe().contains("tentative execution"), on.describe());
        assertEquals("<protocol batchMaxDelay=\"20ms\" tentativeExecution=\"true\"/>",
                TestbedOptions.parse("--tentative", "--protocol", "batchMaxDelay=20ms").protocol());
        assertEquals("<protocol checkpointInterval=\"16\" watermarkWindow=\"64\" tentativeExecution=\"true\"/>",
                TestbedOptions.parse("--tentative", "--byzantine", "flood").protocol(),
                "a Byzantine run keeps its frequent checkpoints");
        assertTrue(TestbedOptions.parse("--tentative", "--config", "II").tentative());
        assertEquals(false, TestbedOptions.parse(new String[0]).tentative());
        assertTrue(refusal("--tentative", "--protocol", "tentativeExecution=false")
                .contains("leave it out of --protocol"));
    }

    @Test
    void tentativeIsRefusedWithConfigurationThreeNestedCallsOrOneNode() {
        String three = refusal("--tentative", "--config", "III");
        assertTrue(three.startsWith("--tentative runs PBFT's tentative execution, which needs every executor to take"
                + " part in ordering"), three);
        assertTrue(three.contains("--config III"), three);
        assertTrue(refusal("--tentative", "--config", "III", "--services", "2").contains("--tentative"));
        assertTrue(refusal("--tentative", "--tiers", "3").contains("--tiers 3"));
        assertTrue(refusal("--tentative", "--unreplicated").contains("--unreplicated"));
    }

    @Test
    void hostileRunsAFastSixteenThreadAttackFromTwentyToFiftySecondsOfAnEightySecondRun() {
        HostileOptions h = TestbedOptions.parse("--hostile", "invalid").hostile();
        assertEquals(List.of(org.bftws.bench.hostile.HostileMode.INVALID), h.modes());
        assertEquals(16, h.threads());
        assertEquals(java.time.Duration.ofMillis(300), h.timeout());
        assertEquals(java.time.Duration.ofMillis(100), h.retransmit());
        assertEquals(1, h.retransmissions());
        assertEquals(java.time.Duration.ofSeconds(80), h.total());
        assertEquals("clientTimeout=\"300ms\" retransmissionInterval=\"100ms\" maxRetransmissions=\"1\"",
                h.protocolAttributes());
        TestbedOptions paced = TestbedOptions.parse("--hostile", "garbage", "--security", "none", "--hostile-threads",
                "2", "--hostile-timeout", "3s", "--hostile-rate", "5.5", "--hostile-start", "0");
        assertEquals(java.time.Duration.ofSeconds(3), paced.hostile().timeout());
        assertEquals(5.5, paced.hostile().rate());
        assertTrue(paced.describe().contains("a hostile client (garbage)"), paced.describe());
        assertEquals(null, TestbedOptions.parse(new String[0]).hostile());
    }

    @Test
    void hostileModesThatSpoilMacsNeedTheMacProfileAndTheEchoGroupOfConfigurationI() {
        assertTrue(refusal("--hostile", "primary-only", "--security", "wssec").contains("it needs --security mac"));
        assertTrue(refusal("--hostile", "invalid", "--config", "II").contains("--hostile attacks the echo group"));
        assertTrue(refusal("--hostile", "everything").startsWith("--hostile must be one of valid, invalid, primary-only, "
                + "backups-only, no-header, garbage, create-flood"), refusal("--hostile", "everything"));
        assertTrue(refusal("--hostile", "invalid", "--hostile-timeout", "soon").contains("--hostile-timeout takes"));
        assertEquals("--hostile-threads must be between 1 and 256, not 0",
                refusal("--hostile", "invalid", "--hostile-threads", "0"));
        assertEquals(List.of(org.bftws.bench.hostile.HostileMode.CREATE_FLOOD),
                TestbedOptions.parse("--hostile", "create-flood", "--security", "wssec").hostile().modes());
    }

    @Test
    void hostileTakesSeveralModesAttackedOneAfterAnotherEachFollowedByTheTimeAfter() {
        HostileOptions h = TestbedOptions.parse("--hostile", "valid,primary-only,invalid", "--hostile-start", "10",
                "--hostile-duration", "20", "--hostile-after", "5").hostile();
        assertEquals(List.of(org.bftws.bench.hostile.HostileMode.VALID, org.bftws.bench.hostile.HostileMode.PRIMARY_ONLY,
                org.bftws.bench.hostile.HostileMode.INVALID), h.modes());
        assertEquals(java.time.Duration.ofSeconds(10), h.attackStart(0));
        assertEquals(java.time.Duration.ofSeconds(35), h.attackStart(1));
        assertEquals(java.time.Duration.ofSeconds(60), h.attackStart(2));
        assertEquals(java.time.Duration.ofSeconds(85), h.total());
        assertTrue(h.describe().contains("attacks, each by a JVM of its own, from 10 s to 30 s, 35 s to 55 s, 60 s to "
                + "80 s of the 85 s measured"), h.describe());
        assertEquals("--hostile names invalid twice: one attack per mode",
                refusal("--hostile", "invalid,valid,invalid"));
        assertTrue(refusal("--hostile", "valid,invalid", "--security", "wssec").contains("it needs --security mac"));
        assertTrue(refusal("--hostile", "valid,").startsWith("--hostile must be one of"));
    }
}
