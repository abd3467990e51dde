package dev.jetw.analysis.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Spans that may overlap (JVM runtime events of one class, a thread's disk I/Os), put on lanes so that
 * the spans of one lane never overlap: a viewer's track must nest (Perfetto counts partly overlapping
 * slices as errors and drops them; speedscope misreads them). A span goes on the first lane of its
 * group free at its start (its last span ended by then); lane 0 is the group's own track, lane n its
 * track "NAME n+1". Memory: a long per lane.
 */
final class Lanes {

    private final Map<String, List<Long>> ends = new HashMap<>();

    /** The lane of [start, end] in {@code group}: 0, 1, ... */
    int place(String group, long start, long end) {
        List<Long> l = ends.computeIfAbsent(group, x -> new ArrayList<>());
        int lane = 0;
        while (lane < l.size() && l.get(lane) > start) {
            lane++;
        }
        if (lane == l.size()) {
            l.add(end);
        } else {
            l.set(lane, end);
        }
        return lane;
    }

    /** "JvmPark" for lane 0, "JvmPark 2" for lane 1, ... */
    static String name(String base, int lane) {
        return lane == 0 ? base : base + " " + (lane + 1);
    }
}
