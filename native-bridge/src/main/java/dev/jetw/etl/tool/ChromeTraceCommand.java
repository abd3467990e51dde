package dev.jetw.etl.tool;

import dev.jetw.etl.EtlReader;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;

/**
 * {@code chrome-trace [-o OUT.json] FILE...}: Trace Event Format JSON (an object with "traceEvents")
 * for Perfetto UI and chrome://tracing. Each traced call is a complete event ("X", ts and dur in µs
 * after the session's StartTime) on its pid/tid, so nesting comes from the times; a call still running
 * at stop lasts until the file's last record and has {@code "unfinished": true}; a checkpoint is a
 * thread-scoped instant ("i"); thread and process names are metadata events ("M"). A task handed over
 * from a traced call (CrossThreadLinks) is a slice "task (queued X ms)" over its calls, with a flow arrow
 * ("s" at the submission on the submitter's thread, "f" at the task's start) from the submitting call.
 * Without -o the output is FILE with ".etl" replaced by ".trace.json"; -o takes one FILE only.
 */
final class ChromeTraceCommand {

    private ChromeTraceCommand() {
    }

    static Path defaultOutput(Path etl) {
        String name = etl.getFileName().toString();
        String base = name.toLowerCase(java.util.Locale.ROOT).endsWith(".etl") ? name.substring(0, name.length() - 4) : name;
        return etl.resolveSibling(base + ".trace.json");
    }

    static int run(List<Path> files, Path output, PrintStream out, PrintStream err) {
        int status = EtlTool.OK;
        for (Path f : files) {
            Path target = output != null ? output : defaultOutput(f);
            int[] written = {-2}; // -2: file not read, -1: output not written, else events written
            status = EtlTool.worse(status, EtlFileRun.run(f, err, reader -> {
                CallTrees trees = CallTrees.read(reader);
                try {
                    written[0] = write(target, reader, trees);
                } catch (IOException e) {
                    err.println("jetw etl: cannot write " + target + ": " + e.getMessage());
                    written[0] = -1;
                }
            }));
            if (written[0] == -1) {
                status = EtlTool.worse(status, EtlTool.BAD_FILE);
            } else if (written[0] >= 0) {
                out.println(target);
            }
        }
        return status;
    }

    private static int write(Path target, EtlReader reader, CallTrees trees) throws IOException {
        long start = reader.header().startTime();
        int count = 0;
        try (Writer w = Files.newBufferedWriter(target, StandardCharsets.UTF_8)) {
            w.write("{\"traceEvents\":[\n");
            TreeSet<Integer> pids = new TreeSet<>();
            for (ThreadCalls t : trees.threads) {
                pids.add(t.processId);
            }
            for (RuntimeSpans.Span span : trees.runtime.all()) {
                pids.add(span.processId);
            }
            for (int pid : pids) {
                JsonWriter m = meta("process_name", pid, 0, "jetw " + reader.header().loggerName() + " (pid " + pid + ")");
                count = emit(w, m, count);
            }
            for (ThreadCalls t : trees.threads) {
                String name = trees.names.thread(t.processId, t.threadId);
                count = emit(w, meta("thread_name", t.processId, t.threadId,
                        name != null ? name + " (tid " + t.threadId + ")" : "tid " + t.threadId), count);
                for (CallNode n : t.roots) {
                    count = node(w, n, t, trees, start, count);
                }
            }
            count = runtime(w, trees, start, count);
            count = flows(w, trees, start, count);
            w.write("\n],\"displayTimeUnit\":\"ms\",\"otherData\":");
            w.write(new JsonWriter().beginObject().field("file", reader.file().toString())
                    .field("session", reader.header().loggerName()).field("startTime", Text.iso(start))
                    .endObject().toString());
            w.write("}\n");
        }
        return count;
    }

    /** The track of each process's JVM runtime events (a tid no real thread has). */
    static final int JVM_TRACK = 0;

    /**
     * Runtime events: every one on its process's JVM track, and one with a subject thread also on
     * that thread's track (the call-tree thread it concerns, else its OS thread id).
     */
    private static int runtime(Writer w, CallTrees trees, long start, int count) throws IOException {
        int c = count;
        TreeSet<Integer> named = new TreeSet<>();
        for (RuntimeSpans.Span span : trees.runtime.all()) {
            if (named.add(span.processId)) {
                c = emit(w, meta("thread_name", span.processId, JVM_TRACK, "JVM runtime (jetw jvm= events)"), c);
            }
            c = emit(w, spanEvent(span, JVM_TRACK, start), c);
            if (!span.cls.jvmWide) {
                int tid = subjectTrack(span, trees);
                if (tid != JVM_TRACK) {
                    c = emit(w, spanEvent(span, tid, start), c);
                }
            }
        }
        return c;
    }

    private static int subjectTrack(RuntimeSpans.Span span, CallTrees trees) {
        for (ThreadCalls t : trees.threads) {
            if (span.concerns(t.processId, t.threadId)) {
                return t.threadId;
            }
        }
        return (int) span.first.osThreadId();
    }

    private static JsonWriter spanEvent(RuntimeSpans.Span span, int tid, long start) {
        JsonWriter e = new JsonWriter().beginObject().field("name", span.label()).field("cat", "jetw.jvm." + span.cls.family);
        e.field("ph", span.instant() ? "i" : "X");
        if (span.instant()) {
            e.field("s", "t");
        }
        e.name("ts").value((span.start - start) / 10.0, 1);
        if (!span.instant()) {
            e.name("dur").value((span.end - span.start) / 10.0, 1);
        }
        e.field("pid", span.processId).field("tid", tid);
        e.name("args").beginObject().field("osThreadId", span.first.osThreadId()).field("javaThreadId", span.first.javaThreadId)
                .endObject();
        return e;
    }

    private static JsonWriter meta(String what, int pid, int tid, String name) {
        return new JsonWriter().beginObject().field("name", what).field("ph", "M").field("pid", pid).field("tid", tid)
                .name("args").beginObject().field("name", name).endObject();
    }

    private static int emit(Writer w, JsonWriter event, int count) throws IOException {
        if (count > 0) {
            w.write(",\n");
        }
        w.write(event.endObject().toString());
        return count + 1;
    }

    /** A task's slice, from its DEQUEUE to the end of its last call, then its calls. */
    private static int task(Writer w, CallNode n, ThreadCalls t, CallTrees trees, long start, int count) throws IOException {
        CrossThreadLinks.Link l = trees.links.task(t.processId, n.instanceId);
        long end = Math.max(n.start, n.lastEnd());
        JsonWriter e = new JsonWriter().beginObject()
                .field("name", l == null ? "task" : "task (queued " + Text.millis(l.waitNanos / 100) + " ms)")
                .field("cat", "jetw.task").field("ph", "X");
        e.name("ts").value((n.start - start) / 10.0, 1);
        e.name("dur").value((end - n.start) / 10.0, 1);
        e.field("pid", t.processId).field("tid", t.threadId);
        e.name("args").beginObject().field("instanceId", n.instanceId);
        if (l != null) {
            e.field("queueWaitNs", l.waitNanos).field("handoff", CrossThreadLinks.kindName(l.kind))
                    .field("submitterInstanceId", l.submitterInstanceId);
        }
        e.endObject();
        int c = emit(w, e, count);
        for (CallNode child : n.children) {
            c = node(w, child, t, trees, start, c);
        }
        return c;
    }

    /** A flow arrow per hand-off whose both ends are in the file: submitting call -> task slice. */
    private static int flows(Writer w, CallTrees trees, long start, int count) throws IOException {
        int c = count;
        int id = 0;
        for (CrossThreadLinks.Link l : trees.links.links()) {
            if (!l.resolved() || trees.taskNode(l) == null) {
                continue;
            }
            id++;
            c = emit(w, flow("s", id, l.processId, l.submitterThreadId, l.submitTime() - start), c);
            c = emit(w, flow("f", id, l.processId, l.taskThreadId, l.dequeueTime - start).field("bp", "e"), c);
        }
        return c;
    }

    private static JsonWriter flow(String phase, int id, int pid, int tid, long at) {
        JsonWriter e = new JsonWriter().beginObject().field("name", "hand-off").field("cat", "jetw.handoff").field("ph", phase)
                .field("id", id);
        e.name("ts").value(at / 10.0, 1);
        return e.field("pid", pid).field("tid", tid);
    }

    private static int node(Writer w, CallNode n, ThreadCalls t, CallTrees trees, long start, int count)
            throws IOException {
        int c = count;
        if (n.checkpoint) {
            JsonWriter e = new JsonWriter().beginObject().field("name", n.text).field("cat", "jetw.checkpoint")
                    .field("ph", "i").field("s", "t");
            e.name("ts").value((n.start - start) / 10.0, 1);
            e.field("pid", t.processId).field("tid", t.threadId);
            e.name("args").beginObject().field("methodId", n.methodId).endObject();
            return emit(w, e, c);
        }
        if (n.start == CallNode.NONE) {
            return c; // END without START: no place on the timeline
        }
        if (n.task) {
            return task(w, n, t, trees, start, c);
        }
        long end = n.finished() ? n.end : Math.max(n.start, trees.lastFileTime);
        JsonWriter e = new JsonWriter().beginObject().field("name", trees.names.method(n.methodId))
                .field("cat", "jetw").field("ph", "X");
        e.name("ts").value((n.start - start) / 10.0, 1);
        e.name("dur").value((end - n.start) / 10.0, 1);
        e.field("pid", t.processId).field("tid", t.threadId);
        e.name("args").beginObject().field("methodId", n.methodId).field("instanceId", n.instanceId);
        if (n.threw()) {
            e.field("exception", n.text);
        }
        if (!n.finished()) {
            e.field("unfinished", true);
        }
        e.endObject();
        c = emit(w, e, c);
        for (CallNode child : n.children) {
            c = node(w, child, t, trees, start, c);
        }
        return c;
    }
}
