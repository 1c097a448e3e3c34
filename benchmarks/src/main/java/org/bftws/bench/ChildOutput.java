package org.bftws.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/** A child JVM's output (stdout and stderr merged) copied to its log as it comes, each line also given to a watcher. */
final class ChildOutput {
    private ChildOutput() {
    }

    /**
     * Copies {@code process}'s output to {@code log} line by line (flushed, so the log is current while it runs), handing
     * each line to {@code watch}; returns when the output ends (the process exited). IOException when either side fails.
     */
    static void copy(Process process, Path log, Consumer<String> watch) throws IOException {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)); BufferedWriter w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                w.write(line);
                w.newLine();
                w.flush();
                watch.accept(line);
            }
        }
    }
}
