package org.bftws.bench.nemesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** When a test whose prerequisite is missing fails, and when it is skipped with the reason printed. */
class PrerequisitesTest {

    private static final Optional<String> NO_IP = Optional.of("no 'ip' command");

    @Test
    void underCiAMissingPrerequisiteFailsTheTestWithTheReason() {
        Prerequisites.Policy ci = Prerequisites.policy(null, "true");
        assertTrue(ci.required());
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> Prerequisites.require(ci,
                "NetworkTest.x", "network namespaces", NO_IP, new PrintStream(printed, true, StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().startsWith("NetworkTest.x needs network namespaces: no 'ip' command (required "
                + "here, CI=true;"), e.getMessage());
        assertTrue(Prerequisites.policy("", "1").required());
    }

    @Test
    void outsideCiAMissingPrerequisiteSkipsTheTestAndPrintsTheReason() {
        for (String ci : new String[] {null, "", "false"}) {
            Prerequisites.Policy here = Prerequisites.policy(null, ci);
            assertFalse(here.required(), ci);
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            TestAbortedException e = assertThrows(TestAbortedException.class, () -> Prerequisites.require(here,
                    "NetworkTest.x", "network namespaces", NO_IP, new PrintStream(printed, true,
                            StandardCharsets.UTF_8)));
            assertTrue(e.getMessage().contains("NetworkTest.x needs network namespaces: no 'ip' command"),
                    e.getMessage());
            assertEquals("SKIPPED NetworkTest.x needs network namespaces: no 'ip' command (not under "
                    + "CI=true; CI=true or -Dbftws.prerequisites=required makes this a failure)\n",
                    printed.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void thePropertyDecidesOverCiAndTakesOnlyRequiredOrOptional() {
        assertTrue(Prerequisites.policy("required", null).required());
        assertFalse(Prerequisites.policy("optional", "true").required());
        assertEquals("-Dbftws.prerequisites=optional", Prerequisites.policy(" Optional ", "true").because());
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        assertThrows(TestAbortedException.class, () -> Prerequisites.require(Prerequisites.policy("optional", "true"),
                "T.x", "Go", Optional.of("no 'go' command"), new PrintStream(printed, true, StandardCharsets.UTF_8)));
        assertEquals("SKIPPED T.x needs Go: no 'go' command (-Dbftws.prerequisites=optional)\n",
                printed.toString(StandardCharsets.UTF_8));
        assertThrows(IllegalArgumentException.class, () -> Prerequisites.policy("yes", null));
    }

    @Test
    void aPrerequisiteThatIsPresentNeitherFailsNorSkipsNorPrints() {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        Prerequisites.require(Prerequisites.policy(null, "true"), "T.x", "Go", Optional.empty(), out);
        Prerequisites.require(Prerequisites.policy(null, null), "T.x", "Go", Optional.empty(), out);
        assertEquals("", printed.toString(StandardCharsets.UTF_8));
    }
}
