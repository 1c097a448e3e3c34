package org.bftws.rm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A set of message numbers kept as disjoint, non-adjacent ranges: exactly what a wsrm:SequenceAcknowledgement
 * carries, and small however many messages a sequence had (one range when nothing is missing). Not thread-safe.
 */
public final class AckRanges {

    /** An inclusive range of message numbers, as in wsrm:AcknowledgementRange. */
    public record Range(long lower, long upper) {
        public Range {
            if (lower < 1 || upper < lower) {
                throw new IllegalArgumentException("bad acknowledgement range [" + lower + ", " + upper + "]");
            }
        }
    }

    private final TreeMap<Long, Long> ranges = new TreeMap<>();

    /** Adds {@code n}; returns false when it was already in the set. */
    public boolean add(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("message numbers start at 1, got " + n);
        }
        if (contains(n)) {
            return false;
        }
        long lower = n;
        long upper = n;
        Map.Entry<Long, Long> below = ranges.floorEntry(n - 1);
        if (below != null && below.getValue() == n - 1) {
            lower = below.getKey();
            ranges.remove(below.getKey());
        }
        Long aboveUpper = ranges.remove(n + 1);
        if (aboveUpper != null) {
            upper = aboveUpper;
        }
        ranges.put(lower, upper);
        return true;
    }

    /** Adds every number of {@code r}. */
    public void addRange(Range r) {
        for (long n = r.lower(); n <= r.upper(); n++) {
            add(n);
        }
    }

    /** Forgets every number above {@code last}, in time proportional to the ranges, not the numbers. */
    public void removeAbove(long last) {
        ranges.tailMap(last, false).clear();
        Map.Entry<Long, Long> e = ranges.floorEntry(last);
        if (e != null && e.getValue() > last) {
            ranges.put(e.getKey(), last);
        }
    }

    public boolean contains(long n) {
        Map.Entry<Long, Long> e = ranges.floorEntry(n);
        return e != null && e.getValue() >= n;
    }

    public List<Range> ranges() {
        List<Range> out = new ArrayList<>(ranges.size());
        ranges.forEach((lo, hi) -> out.add(new Range(lo, hi)));
        return out;
    }

    public boolean isEmpty() {
        return ranges.isEmpty();
    }

    /** The highest number in the set, 0 when empty. */
    public long highest() {
        return ranges.isEmpty() ? 0 : ranges.lastEntry().getValue();
    }

    /** Numbers from 1 to {@code highest()} that are missing: what a wsrm:Nack would list. */
    public List<Long> gaps() {
        List<Long> out = new ArrayList<>();
        long next = 1;
        for (Map.Entry<Long, Long> e : ranges.entrySet()) {
            for (long n = next; n < e.getKey(); n++) {
                out.add(n);
            }
            next = e.getValue() + 1;
        }
        return out;
    }

    @Override
    public String toString() {
        return ranges().toString();
    }
}
