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
                    slowest(s, threads, trees.names, start);
                } else {
                    for (ThreadCalls t : threads) {
                        threadLine(s, t, trees.names);
                        for (CallNode n : t.roots) {
                            node(s, n, 1, trees.names, start);
                        }
                    }
                }
                out.print(s);
            }));
        }
        return status;
    }

    private static void slowest(StringBuilder s, List<ThreadCalls> threads, JetwNames names, long start) {
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
        if (best == null) {
            s.append("(no finished top-level call)\n");
            return;
        }
        s.append("slowest top-level call: ").append(Text.millis(best.duration())).append(" ms\n");
        threadLine(s, where, names);
        node(s, best, 1, names, start);
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
        for (CallNode c : n.children) {
            node(s, c, depth + 1, names, sessionStart);
        }
    }
}
