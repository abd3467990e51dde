package dev.jetw.analysis.why;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Time covered by a set of intervals: overlapping ones count once, and only the part inside a window. */
final class Intervals {

    private final List<long[]> list = new ArrayList<>();

    void add(long from, long to) {
        list.add(new long[] {from, to});
    }

    int size() {
        return list.size();
    }

    /** The length of the union of the intervals, clipped to [from, to]. */
    long coveredWithin(long from, long to) {
        List<long[]> sorted = new ArrayList<>(list);
        sorted.sort(Comparator.comparingLong(i -> i[0]));
        long covered = 0;
        long reached = from;
        for (long[] i : sorted) {
            long a = Math.max(i[0], reached);
            long b = Math.min(i[1], to);
            if (b > a) {
                covered += b - a;
                reached = b;
            }
        }
        return covered;
    }
}
