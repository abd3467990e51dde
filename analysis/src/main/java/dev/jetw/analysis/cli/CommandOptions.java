package dev.jetw.analysis.cli;

/** What the command line asked for, for every command (each reads the options that apply to it). */
final class CommandOptions {
    boolean json;
    boolean slowest;
    /** tree --why: a breakdown line under each top-level call. */
    boolean treeWhy;
    boolean quiet;
    /** methods: the sort key and how many methods to list. */
    String sort = "total";
    Integer top;
    /** --thread: only this header thread id; null for all. */
    Integer thread;
    /** --from / --to: milliseconds after the session's StartTime; null for open. */
    Double fromMs;
    Double toMs;
    /** chrome-trace -o / perfetto's OUT. */
    java.nio.file.Path output;

    boolean threadMatches(int tid) {
        return thread == null || thread == tid;
    }

    /** The window in FILETIMEs for a file whose session started at {@code sessionStart}. */
    TimeWindow window(long sessionStart) {
        return new TimeWindow(fromMs == null ? Long.MIN_VALUE : sessionStart + Math.round(fromMs * 10_000),
                toMs == null ? Long.MAX_VALUE : sessionStart + Math.round(toMs * 10_000));
    }

    /** ", thread 12, [5.0 ms, end)" for a command's heading: the filters in force, "" when none. */
    String describeFilters() {
        StringBuilder s = new StringBuilder();
        if (thread != null) {
            s.append(", thread ").append(thread);
        }
        if (fromMs != null || toMs != null) {
            s.append(", window [").append(fromMs == null ? "start" : fromMs + " ms").append(", ")
                    .append(toMs == null ? "end" : toMs + " ms").append(')');
        }
        return s.toString();
    }
}
