package org.bftws.bench;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.provider.Arguments;

/** The parameterized cases whose name (the first argument) contains a filter, for -Dshapes=TEXT and -Dtools=TEXT. */
final class CaseFilter {

    private CaseFilter() {
    }

    /** The cases whose name contains {@code filter}; all when it is null. */
    static Stream<Arguments> only(List<Arguments> cases, String filter) {
        return cases.stream().filter(a -> filter == null || ((String) a.get()[0]).contains(filter));
    }
}
