package dev.jetw.analysis.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code tree [--slowest] [--thread TID] FILE...}: per-thread call trees of jetw's MethodCall events.
 * A call line is "DURATION ms  METHOD [threw EXCEPTION]  @+START ms" (START after the session's
 * StartTime), indented two spaces per level; checkpoints appear in place as {@code * "label"}; a call
 * with no END is "(unfinished)". {@code --slowest} prints only the longest finished top-level call.
 * Cross-thread links (CrossThreadLinks) are followed: a task handed to another thread from a call is
 * printed under that call as "-> queued X ms on THREAD", with the task's calls below it, so a request
 * reads as one tree across threads (joined by {@link CrossThreadTrees}); on the task's thread it is
 * "<- task from THREAD, queued X ms". {@code --slowest} measures a call to the end of the last task it
 * (or its tasks) handed over.
 * {@code --thread} and {@code --from/--to} keep the top-level calls (with their whole trees) of that
 * thread that overlap the window.
 *
 * <p>Streaming: a first pass collects names and JVM runtime spans ({@link TraceContext}); the second
 * builds trees with {@link CallTreeBuilder}, which gives out each top-level tree when complete. Its
 * text goes to its thread's {@link ThreadSpool} (memory: a chunk per thread, the rest in a temporary
 * file) so that threads print one after the other; {@code --slowest} keeps only the best tree so far.
 */
final class TreeCommand {

    private TreeCommand() {
    }

    static int run(List<Path> files, CommandOptions o, PrintStream out, PrintStream err) {
        int status = EtlTool.OK;
        for (Path f : files) {
            status = EtlTool.worse(status, EtlFileRun.run(f, err, reader -> {
                Progress progress = Progress.forCommand(err, o, "tree " + f);
                try {
                    TraceContext context = TraceContext.read(f, progress);
                    TimeWindow window = o.window(reader.header().startTime());
                    out.print("== " + f + " (session " + Text.safe(reader.header().loggerName()) + ")\n");
                    if (o.slowest) {
                        slowest(f, reader, o, window, context, progress, out);
                    } else {
                        WhyCommand.TreeAnnotations why = o.treeWhy ? WhyCommand.annotateTopLevel(f, o.thread) : null;
                        printNotes(why, out);
                        all(reader, o, window, context, why, progress, out);
                    }
                } finally {
                    progress.done();
                }
            }));
        }
        return status;
    }

    /** Whether a top-level call or checkpoint is shown: its thread matches and it overlaps the window. */
    private static boolean shown(CommandOptions o, TimeWindow window, int tid, CallNode root, TraceContext context) {
        if (!o.threadMatches(tid)) {
            return false;
        }
        return window.overlaps(root.time(), root.endOr(context.lastFileTime));
    }

    /** tree --why: the notes every explained call shares (e.g. "no kernel events in this trace"), once. */
    private static void printNotes(WhyCommand.TreeAnnotations why, PrintStream out) {
        if (why != null) {
            for (String note : why.notes) {
                out.print("note: " + note + "\n");
            }
        }
    }

    private static void all(dev.jetw.etl.EtlReader reader, CommandOptions o, TimeWindow window, TraceContext context,
                            WhyCommand.TreeAnnotations why, Progress progress, PrintStream out)
            throws java.io.IOException {
        long start = reader.header().startTime();
        try (ThreadSpool spool = new ThreadSpool()) {
            java.io.IOException[] failed = {null};
            CrossThreadTrees joined = new CrossThreadTrees(context.links, o::threadMatches,
                (tid, root) -> shown(o, window, tid, root, context), (pid, tid, root, elsewhere) -> {
                if (failed[0] != null || !shown(o, window, tid, root, context)) {
                    return;
                }
                long key = (long) pid << 32 | (tid & 0xFFFFFFFFL);
                boolean first = !spool.hasThread(key);
                StringBuilder s = spool.text(key);
                if (first) {
                    threadLine(s, pid, tid, context.names);
                }
                RuntimeContext runtime = new RuntimeContext(context, pid, tid, why);
                if (elsewhere) {
                    indent(s, 1);
                    taskLine(s, root, context.names, start, runtime, true);
                } else {
                    node(s, root, 1, context.names, start, runtime);
                }
                try {
                    spool.maybeSpill(key);
                } catch (java.io.IOException e) {
                    failed[0] = e;
                }
            });
            read(reader, o, new CallTreeBuilder(joined), progress);
            joined.finish();
            if (failed[0] != null) {
                throw failed[0];
            }
            if (spool.isEmpty()) {
                out.print(o.thread == null ? "(no jetw call events in this file)\n"
                        : "(no jetw call events on thread " + o.thread + ")\n");
            }
            for (long key : spool.keys()) {
                spool.print(key, out);
            }
        }
    }

    /** Pass 2: every record of the file into the builder (only the asked-for thread's). */
    private static void read(dev.jetw.etl.EtlReader reader, CommandOptions o, CallTreeBuilder builder, Progress progress)
            throws java.io.IOException {
        for (dev.jetw.etl.EtlRecord r = reader.next(); r != null; r = reader.next()) {
            progress.record(reader, 2, 2);
            if (o.threadMatches(r.threadId())) {
                builder.accept(r, JetwEvent.decode(r));
            }
        }
        builder.finish();
    }

    /** Keeps only the top-level call seen so far that took longest end to end (with the tasks it handed over). */
    private static void slowest(Path file, dev.jetw.etl.EtlReader reader, CommandOptions o, TimeWindow window, TraceContext context,
                                Progress progress, PrintStream out) throws java.io.IOException {
        CallNode[] best = {null};
        int[] where = new int[2];
        long[] bestEnd = {0};
        boolean[] any = {false};
        CrossThreadTrees joined = new CrossThreadTrees(context.links, o::threadMatches,
                (tid, root) -> shown(o, window, tid, root, context), (pid, tid, root, elsewhere) -> {
            if (!shown(o, window, tid, root, context)) {
                return;
            }
            any[0] = true;
            if (!root.checkpoint && !root.task && root.finished()) {
                long end = CrossThreadTrees.endToEnd(root);
                if (best[0] == null || end - root.start > bestEnd[0] - best[0].start) {
                    best[0] = root;
                    where[0] = pid;
                    where[1] = tid;
                    bestEnd[0] = end;
                }
            }
        });
        read(reader, o, new CallTreeBuilder(joined), progress);
        joined.finish();
        StringBuilder s = new StringBuilder();
        if (!any[0]) {
            s.append(o.thread == null ? "(no jetw call events in this file)\n"
                    : "(no jetw call events on thread " + o.thread + ")\n");
        } else if (best[0] == null) {
            s.append("(no finished top-level call)\n");
        } else {
            CallNode call = best[0];
            WhyCommand.TreeAnnotations why = !o.treeWhy ? null : WhyCommand.annotate(file, java.util.Collections.singletonList(
                    new dev.jetw.analysis.why.ExplainedCall(where[0], where[1], call.instanceId, 0, call.methodId, call.start,
                            call.end)));
            printNotes(why, out);
            s.append("slowest top-level call: ").append(Text.millis(call.duration())).append(" ms");
            if (bestEnd[0] > call.end) {
                s.append(", ").append(Text.millis(bestEnd[0] - call.start)).append(" ms end to end with the tasks it handed to other threads");
            }
            s.append('\n');
            threadLine(s, where[0], where[1], context.names);
            node(s, call, 1, context.names, reader.header().startTime(),
                    new RuntimeContext(context, where[0], where[1], why));
        }
        out.print(s);
    }

    /** Where a call's runtime events come from: the file's spans, for the call's thread. */
    static final class RuntimeContext {
        final RuntimeSpans spans;
        final CrossThreadLinks links;
        final TraceContext context;
        final int processId;
        final int threadId;
        final long lastFileTime;
        /** tree --why: the breakdown line of each explained top-level call, or null. */
        final WhyCommand.TreeAnnotations why;

        RuntimeContext(TraceContext context, int processId, int threadId, WhyCommand.TreeAnnotations why) {
            this.spans = context.runtime;
            this.links = context.links;
            this.context = context;
            this.processId = processId;
            this.threadId = threadId;
            this.lastFileTime = context.lastFileTime;
            this.why = why;
        }
    }

    private static void threadLine(StringBuilder s, int pid, int tid, JetwNames names) {
        String name = Text.safe(names.thread(pid, tid));
        s.append("thread ").append(tid);
        if (name != null) {
            s.append(" \"").append(name).append('"');
        }
        s.append(" (pid ").append(pid).append(")\n");
    }

    static void node(StringBuilder s, CallNode n, int depth, JetwNames names, long sessionStart) {
        node(s, n, depth, names, sessionStart, null);
    }

    /**
     * A call line, then (with {@code runtime}) the JVM runtime events that overlapped the call on its
     * thread or stopped the whole JVM, as "! ..." lines, each under the deepest call it overlapped.
     */
    static void node(StringBuilder s, CallNode n, int depth, JetwNames names, long sessionStart, RuntimeContext runtime) {
        indent(s, depth);
        if (n.checkpoint) {
            s.append("* \"").append(Text.safe(n.text)).append("\"  @+").append(Text.millis(n.start - sessionStart)).append(" ms\n");
            return;
        }
        if (n.task) {
            taskLine(s, n, names, sessionStart, runtime, false);
            children(s, n, depth + 1, names, sessionStart, runtime);
            return;
        }
        if (n.finished()) {
            s.append(Text.millis(n.duration())).append(" ms  ");
        } else if (n.start == CallNode.NONE) {
            s.append("(start not recorded)  ");
        } else {
            s.append("(unfinished)  ");
        }
        s.append(Text.safe(names.method(n.methodId)));
        if (n.threw()) {
            s.append("  threw ").append(Text.safe(n.text));
        }
        long at = n.start != CallNode.NONE ? n.start : n.end;
        s.append("  @+").append(Text.millis(at - sessionStart)).append(" ms\n");
        String why = runtime != null && runtime.why != null && depth == 1 ? runtime.why.line(runtime.processId, n) : null;
        if (why != null) {
            for (int i = 0; i <= depth; i++) {
                s.append("  ");
            }
            s.append("? ").append(why).append('\n');
        }
        if (runtime != null && n.start != CallNode.NONE) {
            runtimeLines(s, n, depth + 1, sessionStart, runtime);
        }
        children(s, n, depth + 1, names, sessionStart, runtime);
    }

    /** n's children and, in time order among them, the tasks n handed to other threads (CrossThreadTrees). */
    private static void children(StringBuilder s, CallNode n, int depth, JetwNames names, long sessionStart, RuntimeContext runtime) {
        List<CallNode> handed = n.handed == null || runtime == null ? java.util.Collections.<CallNode>emptyList() : n.handed;
        int next = 0;
        for (CallNode c : n.children) {
            for (; next < handed.size() && submitted(handed.get(next), runtime) <= c.time(); next++) {
                handOff(s, handed.get(next), depth, names, sessionStart, runtime);
            }
            node(s, c, depth, names, sessionStart, runtime);
        }
        for (; next < handed.size(); next++) {
            handOff(s, handed.get(next), depth, names, sessionStart, runtime);
        }
    }

    private static long submitted(CallNode task, RuntimeContext runtime) {
        CrossThreadLinks.Link l = runtime.links.task(runtime.processId, task.instanceId);
        return l == null ? task.start : l.submitTime();
    }

    /** A task handed to another thread: "-> queued X ms on THREAD", the task's calls below, in place among the submitter's children. */
    private static void handOff(StringBuilder s, CallNode task, int depth, JetwNames names, long sessionStart, RuntimeContext runtime) {
        CrossThreadLinks.Link l = runtime.links.task(runtime.processId, task.instanceId);
        indent(s, depth);
        String name = Text.safe(names.thread(l.processId, l.taskThreadId));
        s.append("-> queued ").append(Text.millis(l.waitNanos / 100)).append(" ms on ")
                .append(name != null ? name + " (thread " + l.taskThreadId + ")" : "thread " + l.taskThreadId)
                .append(", ").append(CrossThreadLinks.kindName(l.kind)).append("  @+")
                .append(Text.millis(l.submitTime() - sessionStart)).append(" ms\n");
        children(s, task, depth + 1, names, sessionStart, new RuntimeContext(runtime.context, l.processId, l.taskThreadId, null));
    }

    /** A task's own line in its thread's listing: "<- task from THREAD, queued X ms, KIND  @+START ms". */
    private static void taskLine(StringBuilder s, CallNode n, JetwNames names, long sessionStart, RuntimeContext runtime,
                                 boolean joinedElsewhere) {
        CrossThreadLinks.Link l = runtime == null ? null : runtime.links.task(runtime.processId, n.instanceId);
        s.append("<- task");
        if (l != null) {
            String from = Text.safe(names.thread(l.processId, l.submitterThreadId));
            s.append(l.resolved() ? " from " + (from != null ? from + " (thread " + l.submitterThreadId + ")" : "thread " + l.submitterThreadId)
                    : " from a call not in the file").append(", queued ").append(Text.millis(l.waitNanos / 100)).append(" ms, ")
                    .append(CrossThreadLinks.kindName(l.kind));
        }
        s.append("  @+").append(Text.millis(n.start - sessionStart)).append(" ms");
        s.append(joinedElsewhere ? "  (its calls are shown under the submitting call)\n" : "\n");
    }

    private static void indent(StringBuilder s, int depth) {
        for (int i = 0; i < depth; i++) {
            s.append("  ");
        }
    }

    private static void runtimeLines(StringBuilder s, CallNode n, int depth, long sessionStart, RuntimeContext runtime) {
        long end = n.finished() ? n.end : runtime.lastFileTime;
        for (RuntimeSpans.Span span : runtime.spans.overlapping(runtime.processId, runtime.threadId, n.start, end)) {
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
            s.append(Text.safe(span.label())).append("  @+").append(Text.millis(span.start - sessionStart)).append(" ms\n");
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
