package org.bftws;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The module's packages as docs/architecture.md draws them: no package reaches back into one that depends on it, the
 * page's table names exactly the dependencies the code has (so the map cannot drift from the territory), and the
 * adapter's root holds only the class module.xml names as the module.
 */
class PackageDependenciesTest {
    private static final String ROOT = "org.bftws";
    private static final Path PAGE = Path.of("..", "docs", "architecture.md");
    /** A row of the page's package table: | `org.bftws.x` | what | `a`, `b.c` (or -) | */
    private static final Pattern ROW = Pattern.compile("^\\| `org\\.bftws\\.([\\w.]+)`[^|]*\\|[^|]*\\|([^|]*)\\|\\s*$");

    /** This module's own classes (what bftws.mar ships), not the samples its tests use. */
    private final JavaClasses classes = new ClassFileImporter().importPath(Path.of("target", "classes"));

    @Test
    void noPackageDependsOnAPackageThatDependsOnIt() {
        slices().matching("org.bftws.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void theArchitecturePageNamesExactlyTheDependenciesEachPackageHas() throws IOException {
        Map<String, Set<String>> code = dependencies();
        Map<String, Set<String>> page = table();
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, Set<String>> e : code.entrySet()) {
            Set<String> drawn = page.get(e.getKey());
            if (!e.getValue().equals(drawn)) {
                wrong.add((drawn == null ? "missing row" : "row says " + row(drawn)) + "; the code: | `org.bftws."
                        + e.getKey() + "` | ... | " + row(e.getValue()) + " |");
            }
        }
        for (String p : page.keySet()) {
            if (!code.containsKey(p)) {
                wrong.add("the page has a row for org.bftws." + p + ", which has no class in this module");
            }
        }
        assertTrue(wrong.isEmpty(), PAGE + " (Packages) differs from the code:\n" + String.join("\n", wrong));
    }

    @Test
    void theAdapterRootHoldsOnlyTheModuleClass() {
        Set<String> root = classes.stream().filter(c -> c.getPackageName().equals(ROOT + ".axis2"))
                .filter(c -> c.isTopLevelClass()).map(JavaClass::getSimpleName).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of("BftModule"), root, "org.bftws.axis2 holds the module class only");
    }

    /** Each package of this module (relative to org.bftws) and the other packages of this module its classes use. */
    private Map<String, Set<String>> dependencies() {
        Map<String, Set<String>> deps = new TreeMap<>();
        for (JavaClass c : classes) {
            String from = relative(c.getPackageName());
            Set<String> to = deps.computeIfAbsent(from, k -> new TreeSet<>());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String target = d.getTargetClass().getPackageName();
                if (target.startsWith(ROOT + ".") && !relative(target).equals(from)
                        && classes.contain(d.getTargetClass().getName())) {
                    to.add(relative(target));
                }
            }
        }
        return deps;
    }

    private static Map<String, Set<String>> table() throws IOException {
        Map<String, Set<String>> rows = new TreeMap<>();
        for (String line : Files.readAllLines(PAGE)) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                Set<String> to = new TreeSet<>();
                Matcher name = Pattern.compile("`([\\w.]+)`").matcher(m.group(2));
                while (name.find()) {
                    to.add(name.group(1));
                }
                rows.put(m.group(1), to);
            }
        }
        return rows;
    }

    private static String relative(String pkg) {
        return pkg.substring(ROOT.length() + 1);
    }

    private static String row(Set<String> deps) {
        return deps.isEmpty() ? "-" : deps.stream().map(d -> "`" + d + "`").collect(Collectors.joining(", "));
    }
}
