package dev.jetw.etl.tool;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tree [--slowest] [--thread TID] FILE...}: per-thread call trees of jetw's MethodCall events.
 * A call line is "DURATION ms  METHOD [threw EXCEPTION]  @+START ms" (START after the session's
 * StartTime), indented two spaces per level; checkpoints appear in place as {@code * "label"}; a call
 * with no END is "(unfinished)". {@code --slowest} prints only the longest finished top-level call.
 */
final class TreeCommand {

    private TreeCommand() {
    }

    static int run(List<Path> files, boolean slowest, Integer thread, PrintStream out, PrintStream err) {
        return run(files, slowest, thread, false, out, err);
    }

    /** With {@code why}, each top-level call shown gets a "? why (ms): ..." line (WhyCommand.annotate). */
    static int run(List<Path> files, boolean slowest, Integer thread, boolean why, PrintStream out, PrintStream err) {
        int status = EtlTool.OK;
        for (Path f : files) {
            status = EtlTool.worse(status, EtlFileRun.run(f, err, reader -> {
                CallTrees trees = CallTrees.read(reader);
                long start = reader.header().startTime();
                List<ThreadCalls> threads = new ArrayList<>();
                for (ThreadCalls t : trees.threads) {
                    if (thread == null || t.threadId == thread) {
                        threads.add(t);
                    }
                }
                StringBuilder s = new StringBuilder();
                s.append("== ").append(f).append(" (session ").append(reader.header().loggerName()).append(")\n");
                WhyCommand.TreeAnnotations whyLines = null;
                if (why && !threads.isEmpty()) {
                    whyLines = WhyCommand.annotate(f, slowest ? slowestRoot(threads) : threads);
                    for (String note : whyLines.notes) {
                        s.append("note: ").append(note).append('\n');
                    }
                }
                if (threads.isEmpty()) {
                    s.append(thread == null ? "(no jetw call events in this file)\n"
                            : "(no jetw call events on thread " + thread + ")\n");
                } else if (slowest) {
                    slowest(s, threads, trees, start, whyLines);
                } else {
                    for (ThreadCalls t : threads) {
                        threadLine(s, t, trees.names);
                        for (CallNode n : t.roots) {
                            node(s, n, 1, trees.names, start, new RuntimeContext(trees, t, whyLines));
                        }
                    }
                }
                out.print(s);
            }));
        }
        return status;
    }

    /** The thread holding the longest finished top-level call, with only that call as its root; empty when none. */
    private static List<ThreadCalls> slowestRoot(List<ThreadCalls> threads) {
        CallNode best = null;
        ThreadCalls where = null;
        for (ThreadCalls t : threads) {
            for (CallNode n : t.roots) {
                if (!n.checkpoint && n.finished() && (best == null || n.duration() > best.duration())) {
                    best = n;
                    where = t;
                }
            }
        }
        List<ThreadCalls> out = new ArrayList<>();
        if (best != null) {
            ThreadCalls only = new ThreadCalls(where.processId, where.threadId);
            only.roots.add(best);
            out.add(only);
        }
        return out;
    }

    private static void slowest(StringBuilder s, List<ThreadCalls> threads, CallTrees trees, long start,
                                WhyCommand.TreeAnnotations why) {
        List<ThreadCalls> best = slowestRoot(threads);
        if (best.isEmpty()) {
            s.append("(no finished top-level call)\n");
            return;
        }
        ThreadCalls where = best.get(0);
        CallNode call = where.roots.get(0);
        s.append("slowest top-level call: ").append(Text.millis(call.duration())).append(" ms\n");
        threadLine(s, where, trees.names);
        node(s, call, 1, trees.names, start, new RuntimeContext(trees, where, why));
    }

    /** Where a call's runtime events come from: the file's spans, for the call's thread. */
    static final class RuntimeContext {
        final RuntimeSpans spans;
        final ThreadCalls thread;
        final long lastFileTime;
        /** tree --why: the breakdown line of each top-level call, or null. */
        final WhyCommand.TreeAnnotations why;

        RuntimeContext(CallTrees trees, ThreadCalls thread, WhyCommand.TreeAnnotations why) {
            this.spans = trees.runtime;
            this.thread = thread;
            this.lastFileTime = trees.lastFileTime;
            this.why = why;
        }
    }

    private static void threadLine(StringBuilder s, ThreadCalls t, JetwNames names) {
        String name = names.thread(t.processId, t.threadId);
        s.append("thread ").append(t.threadId);
        if (name != null) {
            s.append(" \"").append(name).append('"');
        }
        s.append(" (pid ").append(t.processId).append(")\n");
    }

    static void node(StringBuilder s, CallNode n, int depth, JetwNames names, long sessionStart) {
        node(s, n, depth, names, sessionStart, null);
    }

    /**
     * A call line, then (with {@code runtime}) the JVM runtime events that overlapped the call on its
     * thread or stopped the whole JVM, as "! ..." lines, each under the deepest call it overlapped.
     */
    static void node(StringBuilder s, CallNode n, int depth, JetwNames names, long sessionStart, RuntimeContext runtime) {
        for (int i = 0; i < depth; i++) {
            s.append("  ");
        }
        if (n.checkpoint) {
            s.append("* \"").append(n.text).append("\"  @+").append(Text.millis(n.start - sessionStart)).append(" ms\n");
            return;
        }
        if (n.finished()) {
            s.append(Text.millis(n.duration())).append(" ms  ");
        } else if (n.start == CallNode.NONE) {
            s.append("(start not recorded)  ");
        } else {
            s.append("(unfinished)  ");
        }
        s.append(names.method(n.methodId));
        if (n.threw()) {
            s.append("  threw ").append(n.text);
        }
        long at = n.start != CallNode.NONE ? n.start : n.end;
        s.append("  @+").append(Text.millis(at - sessionStart)).append(" ms\n");
        String why = runtime != null && runtime.why != null ? runtime.why.lines.get(n) : null;
        if (why != null) {
            for (int i = 0; i <= depth; i++) {
                s.append("  ");
            }
            s.append("? ").append(why).append('\n');
        }
        if (runtime != null && n.start != CallNode.NONE) {
            runtimeLines(s, n, depth + 1, sessionStart, runtime);
        }
        for (CallNode c : n.children) {
            node(s, c, depth + 1, names, sessionStart, runtime);
        }
    }

    private static void runtimeLines(StringBuilder s, CallNode n, int depth, long sessionStart, RuntimeContext runtime) {
        long end = n.finished() ? n.end : runtime.lastFileTime;
        for (RuntimeSpans.Span span : runtime.spans.overlapping(runtime.thread.processId, runtime.thread.threadId, n.start, end)) {
            if (inAChild(n, span, runtime.lastFileTime)) {
                continue; // printed under the deeper call
            }
            for (int i = 0; i < depth; i++) {
                s.append("  ");
            }
            s.append("! ");
            if (!span.instant()) {
                s.append(Text.millis(span.end - span.start)).append(" ms  ");
            }
            s.append(span.label()).append("  @+").append(Text.millis(span.start - sessionStart)).append(" ms\n");
        }
    }

    private static boolean inAChild(CallNode n, RuntimeSpans.Span span, long lastFileTime) {
        for (CallNode c : n.children) {
            if (!c.checkpoint && c.start != CallNode.NONE) {
                long end = c.finished() ? c.end : lastFileTime;
                if (span.start <= end && span.end >= c.start) {
                    return true;
                }
            }
        }
        return false;
    }
}
