package dev.jetw.analysis.cli;

import java.io.IOException;

/**
 * Writes a top-level call tree so that its slices nest on their track, as Perfetto requires (it drops
 * slices that do not) and speedscope assumes. Records are not time ordered (thresholded STARTs come at
 * exit, END may precede START on a clock tie), calls can be unbalanced (END without START, START without
 * END) and clocks skewed. The tree is written depth first, each call clamped into [its parent's begin,
 * its parent's end] and after its previous sibling; an END without START writes no slice, its children
 * stand at its level; a call still running at stop ends at the file's last record. Calls moved by the
 * clamp are counted.
 */
final class NestedCalls {

    /** What a tree is written to. */
    interface Writer {
        void checkpoint(CallNode n, long at) throws IOException;

        /** A call's slice begins at {@code start}; it will end at {@code end} (its children come in between). */
        void begin(CallNode n, long start, long end) throws IOException;

        void end(CallNode n, long start, long end) throws IOException;
    }

    private final long lastFileTime;
    long clamped;

    NestedCalls(long lastFileTime) {
        this.lastFileTime = lastFileTime;
    }

    /** Writes {@code n} and its children inside [lo, hi]; returns where the next sibling may start. */
    long write(CallNode n, long lo, long hi, Writer w) throws IOException {
        if (n.checkpoint) {
            long t = clamp(n.start, lo, hi);
            w.checkpoint(n, t);
            return t;
        }
        if (n.start == CallNode.NONE) { // END without START: its children stand at its level
            long c = lo;
            for (CallNode child : n.children) {
                c = write(child, c, hi, w);
            }
            return c;
        }
        long rawEnd = n.finished() ? n.end : Math.max(n.start, lastFileTime);
        long s = clamp(n.start, lo, hi);
        long e = clamp(rawEnd, s, hi);
        if (s != n.start || e != rawEnd) {
            clamped++;
        }
        w.begin(n, s, e);
        long c = s;
        for (CallNode child : n.children) {
            c = write(child, c, e, w);
        }
        w.end(n, s, e);
        return e;
    }

    private static long clamp(long t, long lo, long hi) {
        return Math.max(lo, Math.min(t, hi));
    }
}
