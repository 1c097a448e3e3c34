package org.bftws.config;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzz target (docs/fuzzing.md): the replicas.xml reader on any file content. It either returns a deployment or
 * refuses with a {@link ConfigException} whose problems name the line and the element (docs/configuration.md);
 * anything else thrown is a crash. Key files are not required here ({@link KeyFileCheck#none()}): whether a named
 * file exists is not what the fuzzer can vary.
 */
class ReplicasXmlFuzzTest {
    @TempDir
    static Path dir;

    @FuzzTest(maxDuration = "10m")
    void anyFileIsReadAsADeploymentOrRefusedWithItsProblems(byte[] content) throws IOException {
        Path file = dir.resolve("replicas.xml");
        Files.write(file, content);
        try {
            ReplicasConfigReader.read(file, KeyFileCheck.none());
        } catch (ConfigException refused) {
            // a documented refusal
        }
    }
}
