package org.bftws.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A group's {@code <operation>} elements: which operations are read-only, how clients recognise them. */
class OperationsConfigTest {

    @TempDir
    Path dir;

    @Test
    void readOnlyOperationsAreReadWithTheirActionAndTimeoutAndOthersAreNot() {
        ReplicasXml xml = new ReplicasXml();
        xml.protocol = "<operation name=\"get_state\" readOnly=\"true\" readTimeout=\"250ms\"/>\n"
                + "<operation name=\"lookup\" readOnly=\"true\" action=\"urn:kv:find\"/>\n"
                + "<operation name=\"append\"/>";
        GroupConfig g = ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()).groups().get(0);
        assertEquals(Duration.ofMillis(250), g.readOnlyOperation("get_state").orElseThrow().readTimeout());
        assertEquals(OperationConfig.DEFAULT_READ_TIMEOUT, g.readOnlyOperation("lookup").orElseThrow().readTimeout());
        assertTrue(g.readOnlyOperation("append").isEmpty(), "declared, but not read-only");
        assertTrue(g.readOnlyOperation("echo").isEmpty(), "not declared");
        assertEquals("get_state", g.readOnlyForAction("http://bftws.org/samples/echo/get_state").orElseThrow().name());
        assertEquals("get_state", g.readOnlyForAction("urn:get_state").orElseThrow().name());
        assertTrue(g.readOnlyForAction("http://bftws.org/samples/echo/set_state").isEmpty());
        assertEquals("lookup", g.readOnlyForAction("urn:kv:find").orElseThrow().name());
        assertTrue(g.readOnlyForAction("urn:lookup").isEmpty(), "an operation with an action matches only it");
        assertTrue(g.hasReadOnlyOperations());
    }

    @Test
    void aGroupWithoutOperationsHasNoReadOnlyOnes() {
        GroupConfig g = ReplicasConfigReader.read(new ReplicasXml().writeTo(dir), KeyFileCheck.none()).groups().get(0);
        assertFalse(g.hasReadOnlyOperations());
        assertTrue(g.readOnlyForAction("http://bftws.org/samples/echo/echo").isEmpty());
    }

    @Test
    void anOperationDeclaredTwiceIsRefusedNamingIt() {
        ReplicasXml xml = new ReplicasXml();
        xml.protocol = "<operation name=\"echo\" readOnly=\"true\"/>\n<operation name=\"echo\"/>";
        ConfigException e = assertThrows(ConfigException.class,
                () -> ReplicasConfigReader.read(xml.writeTo(dir), KeyFileCheck.none()));
        assertTrue(e.problems().stream().anyMatch(p -> p.contains("declares operation echo a second time")),
                e.problems().toString());
    }
}
