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
 * Cross-thread links (CrossThreadLinks) are followed: a task handed to another thread from a call is
 * printed under that call as "-> queued X ms on THREAD", with the task's calls below it, so a request
 * reads as one tree across threads; {@code --slowest} measures a call to the end of the last task it
 * (or its tasks) handed over.
 */
final class TreeCommand {

    private TreeCommand() {
    }

    static int run(List<Path> files, boolean slowest, Integer thread, PrintStream out, PrintStream err) {
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
                if (threads.isEmpty()) {
                    s.append(thread == null ? "(no jetw call events in this file)\n"
                            : "(no jetw call events on thread " + thread + ")\n");
                } else if (slowest) {
                    slowest(s, threads, trees, start);
                } else {
                    for (ThreadCalls t : threads) {
                        threadLine(s, t, trees.names);
                        for (CallNode n : t.roots) {
                            node(s, n, 1, trees.names, start, new RuntimeContext(trees, t));
                        }
                    }
                }
                out.print(s);
            }));
        }
        return status;
    }

    private static void slowest(StringBuilder s, List<ThreadCalls> threads, CallTrees trees, long start) {
        JetwNames names = trees.names;
        CallNode best = null;
        ThreadCalls where = null;
        long bestEnd = 0;
        for (ThreadCalls t : threads) {
            for (CallNode n : t.roots) {
                if (!n.checkpoint && !n.task && n.finished()) {
                    long end = endToEnd(n, t, trees, 0);
                    if (best == null || end - n.start > bestEnd - best.start) {
                        best = n;
                        where = t;
                        bestEnd = end;
                    }
                }
            }
        }
        if (best == null) {
            s.append("(no finished top-level call)\n");
            return;
        }
        s.append("slowest top-level call: ").append(Text.millis(best.duration())).append(" ms");
        if (bestEnd > best.end) {
            s.append(", ").append(Text.millis(bestEnd - best.start)).append(" ms end to end with the tasks it handed to other threads");
        }
        s.append('\n');
        threadLine(s, where, names);
        node(s, best, 1, names, start, new RuntimeContext(trees, where));
    }

    /** Where a call's runtime events come from: the file's spans, for the call's thread. */
    static final class RuntimeContext {
        final RuntimeSpans spans;
        final ThreadCalls thread;
        final long lastFileTime;
        final CallTrees trees;

        RuntimeContext(CallTrees trees, ThreadCalls thread) {
            this.trees = trees;
            this.spans = trees.runtime;
            this.thread = thread;
            this.lastFileTime = trees.lastFileTime;
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
        if (n.task) {
            if (taskLine(s, n, names, sessionStart, runtime)) {
                children(s, n, depth + 1, names, sessionStart, runtime);
            }
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
        if (runtime != null && n.start != CallNode.NONE) {
            runtimeLines(s, n, depth + 1, sessionStart, runtime);
        }
        children(s, n, depth + 1, names, sessionStart, runtime);
    }

    /** n's children and, in time order among them, the tasks n handed to other threads. */
    private static void children(StringBuilder s, CallNode n, int depth, JetwNames names, long sessionStart, RuntimeContext runtime) {
        List<CrossThreadLinks.Link> handed = runtime == null ? new ArrayList<>() : handedOver(n, depth, runtime);
        int next = 0;
        for (CallNode c : n.children) {
            long childAt = c.start != CallNode.NONE ? c.start : c.end;
            for (; next < handed.size() && handed.get(next).submitTime() <= childAt; next++) {
                handOff(s, handed.get(next), depth, names, sessionStart, runtime);
            }
            node(s, c, depth, names, sessionStart, runtime);
        }
        for (; next < handed.size(); next++) {
            handOff(s, handed.get(next), depth, names, sessionStart, runtime);
        }
    }

    /** The tasks {@code n} handed to other threads, by submission time (a task run on the same thread is among n's children). */
    private static List<CrossThreadLinks.Link> handedOver(CallNode n, int depth, RuntimeContext runtime) {
        List<CrossThreadLinks.Link> handed = new ArrayList<>();
        ThreadCalls here = runtime.thread;
        for (CrossThreadLinks.Link l : runtime.trees.links.submittedFrom(here.processId, n.instanceId)) {
            ThreadCalls there = runtime.trees.taskThread(l);
            if (there != null && there != here && depth <= MAX_LINK_DEPTH) {
                handed.add(l);
            }
        }
        return handed;
    }

    /** A task handed to another thread: "-> queued X ms on THREAD", the task's calls below, in place among the submitter's children. */
    private static void handOff(StringBuilder s, CrossThreadLinks.Link l, int depth, JetwNames names, long sessionStart, RuntimeContext runtime) {
        ThreadCalls there = runtime.trees.taskThread(l);
        indent(s, depth);
        String name = names.thread(there.processId, there.threadId);
        s.append("-> queued ").append(Text.millis(l.waitNanos / 100)).append(" ms on ")
                .append(name != null ? name + " (thread " + there.threadId + ")" : "thread " + there.threadId)
                .append(", ").append(CrossThreadLinks.kindName(l.kind)).append("  @+")
                .append(Text.millis(l.submitTime() - sessionStart)).append(" ms\n");
        children(s, runtime.trees.taskNode(l), depth + 1, names, sessionStart, new RuntimeContext(runtime.trees, there));
    }

    /** Deeper hand-off chains than this are cut (a guard; time only goes forward along a chain). */
    private static final int MAX_LINK_DEPTH = 200;

    /**
     * A task's own line in its thread's listing: "<- task from THREAD, queued X ms". Returns whether its
     * calls are to be printed here: not when they are printed under the submitting call.
     */
    private static boolean taskLine(StringBuilder s, CallNode n, JetwNames names, long sessionStart, RuntimeContext runtime) {
        CrossThreadLinks.Link l = runtime == null ? null : runtime.trees.links.task(runtime.thread.processId, n.instanceId);
        s.append("<- task");
        boolean elsewhere = l != null && l.resolved() && l.submitterThreadId != runtime.thread.threadId;
        if (l != null) {
            String from = names.thread(l.processId, l.submitterThreadId);
            s.append(l.resolved() ? " from " + (from != null ? from + " (thread " + l.submitterThreadId + ")" : "thread " + l.submitterThreadId)
                    : " from a call not in the file").append(", queued ").append(Text.millis(l.waitNanos / 100)).append(" ms, ")
                    .append(CrossThreadLinks.kindName(l.kind));
        }
        s.append("  @+").append(Text.millis(n.start - sessionStart)).append(" ms");
        s.append(elsewhere ? "  (its calls are shown under the submitting call)\n" : "\n");
        return !elsewhere;
    }

    /** The end of {@code n} or of the last task it (or its calls, or their tasks) handed to another thread. */
    private static long endToEnd(CallNode n, ThreadCalls t, CallTrees trees, int depth) {
        long end = n.end;
        for (CallNode c : n.children) {
            end = Math.max(end, endToEnd(c, t, trees, depth));
        }
        if (depth < MAX_LINK_DEPTH) {
            for (CrossThreadLinks.Link l : trees.links.submittedFrom(t.processId, n.instanceId)) {
                ThreadCalls there = trees.taskThread(l);
                if (there != null && there != t) {
                    end = Math.max(end, endToEnd(trees.taskNode(l), there, trees, depth + 1));
                }
            }
        }
        return end;
    }

    private static void indent(StringBuilder s, int depth) {
        for (int i = 0; i < depth; i++) {
            s.append("  ");
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
