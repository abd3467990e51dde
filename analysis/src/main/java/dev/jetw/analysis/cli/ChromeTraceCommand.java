package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
 * Streams like {@code tree}: names and runtime spans from a first pass, then each top-level tree is
 * written as soon as it is complete; --thread and --from/--to keep the top-level calls of that thread
 * overlapping the window, and the runtime events overlapping it. For large traces use
 * {@code perfetto} (the JSON is about 10 times larger and the UI loads it whole).
 */
final class ChromeTraceCommand {

    private ChromeTraceCommand() {
    }

    static Path defaultOutput(Path etl) {
        String name = etl.getFileName().toString();
        String base = name.toLowerCase(java.util.Locale.ROOT).endsWith(".etl") ? name.substring(0, name.length() - 4) : name;
        return etl.resolveSibling(base + ".trace.json");
    }

    static int run(List<Path> files, CommandOptions o, PrintStream out, PrintStream err) {
        int status = EtlTool.OK;
        for (Path f : files) {
            Path target = o.output != null ? o.output : defaultOutput(f);
            int[] written = {-2}; // -2: file not read, -1: output not written, else events written
            status = EtlTool.worse(status, EtlFileRun.run(f, err, reader -> {
                Progress progress = Progress.forCommand(err, o, "chrome-trace " + f);
                try {
                    TraceContext context = TraceContext.read(f, progress);
                    written[0] = write(target, reader, context, o, progress);
                } catch (OutputFailed e) {
                    err.println("jetw etl: cannot write " + target + ": " + e.getCause().getMessage());
                    written[0] = -1;
                } finally {
                    progress.done();
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

    /** A write to the output failed (as opposed to a read of the input). */
    static final class OutputFailed extends IOException {
        OutputFailed(IOException cause) {
            super(cause);
        }
    }

    /** The JSON being written: events separated by commas, counted; process and thread names once each. */
    private static final class Output {
        final Writer w;
        final String session;
        final TraceContext context;
        final long start;
        final Set<Integer> processes = new HashSet<>();
        final Set<Long> threads = new HashSet<>();
        int count;

        Output(Writer w, String session, TraceContext context, long start) {
            this.w = w;
            this.session = session;
            this.context = context;
            this.start = start;
        }

        void emit(JsonWriter event) throws OutputFailed {
            try {
                if (count > 0) {
                    w.write(",\n");
                }
                w.write(event.endObject().toString());
            } catch (IOException e) {
                throw new OutputFailed(e);
            }
            count++;
        }

        void process(int pid) throws OutputFailed {
            if (processes.add(pid)) {
                emit(meta("process_name", pid, 0, "jetw " + session + " (pid " + pid + ")"));
            }
        }

        void thread(int pid, int tid) throws OutputFailed {
            process(pid);
            if (threads.add((long) pid << 32 | (tid & 0xFFFFFFFFL))) {
                String name = context.names.thread(pid, tid);
                emit(meta("thread_name", pid, tid, name != null ? name + " (tid " + tid + ")" : "tid " + tid));
            }
        }
    }

    private static int write(Path target, EtlReader reader, TraceContext context, CommandOptions o, Progress progress)
            throws IOException {
        long start = reader.header().startTime();
        TimeWindow window = o.window(start);
        Writer opened;
        try {
            opened = Files.newBufferedWriter(target, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new OutputFailed(e);
        }
        try (Writer w = opened) {
            Output out = new Output(w, reader.header().loggerName(), context, start);
            try {
                w.write("{\"traceEvents\":[\n");
            } catch (IOException e) {
                throw new OutputFailed(e);
            }
            OutputFailed[] failed = {null};
            CallTreeBuilder builder = new CallTreeBuilder((pid, tid, root) -> {
                if (failed[0] == null && o.threadMatches(tid)) {
                    try {
                        node(out, root, pid, tid, window);
                    } catch (OutputFailed e) {
                        failed[0] = e;
                    }
                }
            });
            for (EtlRecord r = reader.next(); r != null; r = reader.next()) {
                progress.record(reader, 2, 2);
                if (o.threadMatches(r.threadId())) {
                    builder.accept(r, JetwEvent.decode(r));
                }
            }
            builder.finish();
            if (failed[0] != null) {
                throw failed[0];
            }
            runtime(out, o, window);
            flows(out, o, window);
            try {
                w.write("\n],\"displayTimeUnit\":\"ms\",\"otherData\":");
                w.write(new JsonWriter().beginObject().field("file", reader.file().toString())
                        .field("session", reader.header().loggerName()).field("startTime", Text.iso(start))
                        .endObject().toString());
                w.write("}\n");
            } catch (IOException e) {
                throw new OutputFailed(e);
            }
            return out.count;
        }
    }

    /**
     * A flow arrow per hand-off whose submitter is in the file, kept by --thread (either end) and
     * overlapping the window: submitting call -> task slice.
     */
    private static void flows(Output out, CommandOptions o, TimeWindow window) throws OutputFailed {
        int id = 0;
        for (CrossThreadLinks.Link l : out.context.links.links()) {
            if (!l.resolved() || !(o.threadMatches(l.submitterThreadId) || o.threadMatches(l.taskThreadId))
                    || !window.overlaps(l.submitTime(), l.dequeueTime)) {
                continue;
            }
            id++;
            out.thread(l.processId, l.submitterThreadId);
            out.thread(l.processId, l.taskThreadId);
            out.emit(flow("s", id, l.processId, l.submitterThreadId, l.submitTime() - out.start));
            out.emit(flow("f", id, l.processId, l.taskThreadId, l.dequeueTime - out.start).field("bp", "e"));
        }
    }

    private static JsonWriter flow(String phase, int id, int pid, int tid, long at) {
        JsonWriter e = new JsonWriter().beginObject().field("name", "hand-off").field("cat", "jetw.handoff").field("ph", phase)
                .field("id", id);
        e.name("ts").value(at / 10.0, 1);
        return e.field("pid", pid).field("tid", tid);
    }

    /** The track of each process's JVM runtime events (a tid no real thread has). */
    static final int JVM_TRACK = 0;

    /**
     * Runtime events: every one on its process's JVM track, and one with a subject thread also on
     * that thread's track (the call-tree thread it concerns, else its OS thread id).
     */
    private static void runtime(Output out, CommandOptions o, TimeWindow window) throws OutputFailed {
        TreeSet<Integer> named = new TreeSet<>();
        for (RuntimeSpans.Span span : out.context.runtime.all()) {
            if (!window.overlaps(span.start, span.end)) {
                continue;
            }
            int tid = span.cls.jvmWide ? JVM_TRACK : subjectTrack(span, out.threads);
            if (o.thread != null && !span.cls.jvmWide && tid != o.thread) { // JVM-wide pauses stop that thread too
                continue;
            }
            out.process(span.processId);
            if (named.add(span.processId)) {
                out.emit(meta("thread_name", span.processId, JVM_TRACK, "JVM runtime (jetw jvm= events)"));
            }
            out.emit(spanEvent(span, JVM_TRACK, out.start));
            if (tid != JVM_TRACK) {
                out.emit(spanEvent(span, tid, out.start));
            }
        }
    }

    /** The thread with calls that the span concerns (header ids are OS ids on Windows, Java ids in portable files). */
    private static int subjectTrack(RuntimeSpans.Span span, Set<Long> threads) {
        for (long key : threads) {
            if (span.concerns((int) (key >>> 32), (int) key)) {
                return (int) key;
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

    /** A top-level call or checkpoint and its tree, when it overlaps the window. */
    private static void node(Output out, CallNode root, int pid, int tid, TimeWindow window) throws OutputFailed {
        if (window.overlaps(root.time(), root.endOr(out.context.lastFileTime))) {
            out.thread(pid, tid);
            nodeTree(out, root, pid, tid);
        }
    }

    private static void nodeTree(Output out, CallNode n, int pid, int tid) throws OutputFailed {
        long start = out.start;
        if (n.checkpoint) {
            JsonWriter e = new JsonWriter().beginObject().field("name", n.text).field("cat", "jetw.checkpoint")
                    .field("ph", "i").field("s", "t");
            e.name("ts").value((n.start - start) / 10.0, 1);
            e.field("pid", pid).field("tid", tid);
            e.name("args").beginObject().field("methodId", n.methodId).endObject();
            out.emit(e);
            return;
        }
        if (n.start == CallNode.NONE) {
            return; // END without START: no place on the timeline
        }
        long end = n.finished() ? n.end : Math.max(n.start, out.context.lastFileTime);
        CrossThreadLinks.Link l = n.task ? out.context.links.task(pid, n.instanceId) : null;
        String name = !n.task ? out.context.names.method(n.methodId)
                : l == null ? "task" : "task (queued " + Text.millis(l.waitNanos / 100) + " ms)";
        JsonWriter e = new JsonWriter().beginObject().field("name", name)
                .field("cat", n.task ? "jetw.task" : "jetw").field("ph", "X");
        e.name("ts").value((n.start - start) / 10.0, 1);
        e.name("dur").value((end - n.start) / 10.0, 1);
        e.field("pid", pid).field("tid", tid);
        e.name("args").beginObject();
        if (!n.task) {
            e.field("methodId", n.methodId);
        }
        e.field("instanceId", n.instanceId);
        if (l != null) {
            e.field("queueWaitNs", l.waitNanos).field("handoff", CrossThreadLinks.kindName(l.kind))
                    .field("submitterInstanceId", l.submitterInstanceId);
        }
        if (n.threw()) {
            e.field("exception", n.text);
        }
        if (!n.finished()) {
            e.field("unfinished", true);
        }
        e.endObject();
        out.emit(e);
        for (CallNode child : n.children) {
            nodeTree(out, child, pid, tid);
        }
    }
}
