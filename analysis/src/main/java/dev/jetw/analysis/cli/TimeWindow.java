package dev.jetw.analysis.cli;

/** A half-open time window [from, to) in FILETIMEs (100 ns units); Long.MIN/MAX_VALUE when open. */
final class TimeWindow {

    final long from;
    final long to;

    TimeWindow(long from, long to) {
        this.from = from;
        this.to = to;
    }

    boolean contains(long t) {
        return t >= from && t < to;
    }

    /** True when [start, end] has a moment in the window (an instant: start == end). */
    boolean overlaps(long start, long end) {
        return start < to && end >= from;
    }

    boolean isAll() {
        return from == Long.MIN_VALUE && to == Long.MAX_VALUE;
    }
}
