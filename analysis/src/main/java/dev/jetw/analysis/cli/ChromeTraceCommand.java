package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlReader;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code chrome-trace [-o OUT.json] FILE...}: Trace Event Format JSON (an object with "traceEvents")
 * for Perfetto UI, chrome://tracing and speedscope. Every slice is a begin/end pair ("B" and "E", ts in
 * µs after the session's StartTime) whose name is stable and which carries no args: speedscope keys a
 * frame by the B event's name plus its args' JSON, and warns on every E whose name plus args differ from
 * its B's (checked with speedscope's own importer: ViewerChecksTest), so the values of one call (its ids,
 * an exception, a runtime event's or a kernel slice's fields) are not in this JSON (they are in the
 * {@code .pftrace}, {@code tree} and {@code dump}); a hand-off's values (queue wait, kind, submitting
 * instance) are the args of its flow events, which speedscope ignores. A call is named by its method, a
 * task handed over from a traced call (CrossThreadLinks) "task", a JVM runtime span by its class. Slices
 * of one track nest: a call tree is written depth first and clamped like perfetto's ({@link NestedCalls});
 * spans that overlap (JVM runtime events, a thread's disk I/Os) go on lanes ({@link Lanes}), each lane a
 * track. Tracks that are not threads (a thread's CPU state, disk I/O and JVM runtime events, more lanes of
 * the process's "JVM runtime" track tid 0) get tids from {@link #FIRST_EXTRA_TRACK} up, named
 * "THREAD (tid N): TRACK". Kernel evidence as {@link KernelTracks} gives it. A checkpoint is a
 * thread-scoped instant ("i"); thread and process names are metadata events ("M"), the bare names (the
 * viewers add the pid and tid themselves); a hand-off is a flow arrow ("s" at the submission on the
 * submitter's thread, "f" at the task's start). Without -o the output is FILE with ".etl" replaced by
 * ".trace.json"; -o takes one FILE only. Streams like {@code tree}: names and runtime spans from a first
 * pass, then the records in time order, each top-level tree written as soon as it is complete; --thread
 * and --from/--to keep the top-level calls of that thread overlapping the window, and the runtime and
 * kernel events overlapping it. For large traces use {@code perfetto}.
 */
final class ChromeTraceCommand {

    /** The process's JVM runtime track (a tid no real thread has). */
    static final int JVM_TRACK = 0;
    static final String JVM_TRACK_NAME = "JVM runtime (jetw jvm= events)";
    /** The first tid of the tracks that are not threads: above any thread id Windows, Linux or Java gives out. */
    static final int FIRST_EXTRA_TRACK = 0x40000000;

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
            int[] written = {-2}; // -2: file not read, -1: output not written, else events written (not counting names)
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
                if (written[0] == 0) {
                    // An empty timeline: speedscope recognises no format in it and Perfetto shows nothing; say why.
                    err.println("jetw etl: " + f + ": nothing to show in " + target + ": no jetw calls or checkpoints, JVM runtime"
                            + " events or kernel CPU, sample or disk events" + (o.describeFilters().isEmpty() ? "" : " (kept by the filters" + o.describeFilters() + ")"));
                }
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

    /** The JSON being written: events separated by commas, counted; process, thread and track names once each. */
    private static final class Output implements KernelTracks.Sink {
        final Writer w;
        final String session;
        final TraceContext context;
        final long start;
        final Set<Integer> processes = new HashSet<>();
        final Set<Long> threads = new HashSet<>();
        final Map<String, Integer> extraTracks = new HashMap<>();
        int nextExtra = FIRST_EXTRA_TRACK;
        int count;
        /** Of {@link #count}, the metadata events (process and track names): the rest is what a viewer shows. */
        int names;

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

        void emitName(JsonWriter metadata) throws OutputFailed {
            emit(metadata);
            names++;
        }

        void process(int pid) throws OutputFailed {
            if (processes.add(pid)) {
                emitName(meta("process_name", pid, 0, "jetw " + session));
            }
        }

        /** A thread's track: its name alone (speedscope and Perfetto show the tid beside it), none when it has no name. */
        void thread(int pid, int tid) throws OutputFailed {
            process(pid);
            if (threads.add((long) pid << 32 | (tid & 0xFFFFFFFFL))) {
                String name = context.labels.track(pid, tid);
                if (name != null) {
                    emitName(meta("thread_name", pid, tid, name));
                }
            }
        }

        /** The thread a track of another tid belongs to, with its tid (the viewers show the track's own). */
        String owner(int pid, int tid) {
            String name = context.labels.track(pid, tid);
            return name != null ? name + " (tid " + tid + ")" : "tid " + tid;
        }

        /** The tid of track {@code name} of thread {@code owner} (its CPU state, disk, runtime lanes), named once. */
        int track(int pid, int owner, String name) throws OutputFailed {
            String key = pid + "/" + owner + "/" + name;
            Integer tid = extraTracks.get(key);
            if (tid == null) {
                tid = nextExtra++;
                extraTracks.put(key, tid);
                process(pid);
                emitName(meta("thread_name", pid, tid, owner == JVM_TRACK ? name : owner(pid, owner) + ": " + name));
            }
            return tid;
        }

        /** A slice: "B" and "E" with no args (speedscope keys frames by the B's args and warns on an E whose args differ). */
        void slice(int pid, int tid, String cat, String name, long from, long to) throws OutputFailed {
            emit(event("B", pid, tid, cat, name, from, null));
            emit(event("E", pid, tid, cat, name, to, null));
        }

        void begin(int pid, int tid, String cat, String name, long at) throws OutputFailed {
            emit(event("B", pid, tid, cat, name, at, null));
        }

        void end(int pid, int tid, String cat, String name, long at) throws OutputFailed {
            emit(event("E", pid, tid, cat, name, at, null));
        }

        JsonWriter event(String phase, int pid, int tid, String cat, String name, long at, Map<String, Object> args) {
            JsonWriter e = new JsonWriter().beginObject().field("name", name).field("cat", cat).field("ph", phase);
            if (phase.equals("i")) {
                e.field("s", "t");
            }
            e.name("ts").value((at - start) / 10.0, 1);
            e.field("pid", pid).field("tid", tid);
            if (args != null && !args.isEmpty()) {
                e.name("args").object(args);
            }
            return e;
        }

        @Override
        public void slice(int pid, int tid, String track, long from, long to, String name, Map<String, Object> args)
                throws IOException {
            slice(pid, track(pid, tid, track), "kernel", name, from, to); // its args: in the .pftrace (class comment)
        }

        @Override
        public void instant(int pid, int tid, String track, long at, String name, Map<String, Object> args)
                throws IOException {
            emit(event("i", pid, track(pid, tid, track), "kernel", name, at, args));
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
            NestedCalls nested = new NestedCalls(context.lastFileTime);
            Map<Long, Long> cursor = new HashMap<>();
            CallTreeBuilder builder = new CallTreeBuilder((pid, tid, root) -> {
                if (failed[0] == null && o.threadMatches(tid)) {
                    try {
                        node(out, nested, cursor, root, pid, tid, window);
                    } catch (OutputFailed e) {
                        failed[0] = e;
                    } catch (IOException e) {
                        failed[0] = new OutputFailed(e);
                    }
                }
            });
            KernelTracks kernel = new KernelTracks(context, o, window, reader.header().perfFreq(), out);
            kernel.readInTimeOrder(reader, progress, builder, () -> {
                if (failed[0] != null) {
                    throw failed[0];
                }
            });
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
            return out.count - out.names;
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
            Map<String, Object> args = new LinkedHashMap<>();
            args.put("queueWaitNs", l.waitNanos);
            args.put("handoff", CrossThreadLinks.kindName(l.kind));
            args.put("submitterInstanceId", l.submitterInstanceId);
            args.put("taskInstanceId", l.dequeueInstanceId);
            out.emit(flow("f", id, l.processId, l.taskThreadId, l.dequeueTime - out.start).field("bp", "e").name("args").object(args));
        }
    }

    private static JsonWriter flow(String phase, int id, int pid, int tid, long at) {
        JsonWriter e = new JsonWriter().beginObject().field("name", "hand-off").field("cat", "jetw.handoff").field("ph", phase)
                .field("id", id);
        e.name("ts").value(at / 10.0, 1);
        return e.field("pid", pid).field("tid", tid);
    }

    /**
     * Runtime events, by start time: every one on its process's JVM track (lanes where they overlap), and
     * one with a subject thread (not GC pauses and safepoints) also on that thread's "JVM runtime" track
     * (the call-tree thread it concerns, else its subject's id as the file numbers threads), with lanes too: a runtime event can
     * overlap calls and other runtime events partly, which one track cannot show.
     */
    private static void runtime(Output out, CommandOptions o, TimeWindow window) throws OutputFailed {
        Lanes lanes = new Lanes();
        TreeSet<Integer> named = new TreeSet<>();
        for (RuntimeSpans.Span span : out.context.runtime.all()) {
            if (!window.overlaps(span.start, span.end)) {
                continue;
            }
            int subject = span.cls.jvmWide ? JVM_TRACK : subjectTrack(span, out.threads);
            if (o.thread != null && !span.cls.jvmWide && subject != o.thread) { // JVM-wide pauses stop that thread too
                continue;
            }
            int pid = span.processId;
            out.process(pid);
            if (named.add(pid)) {
                out.emitName(meta("thread_name", pid, JVM_TRACK, JVM_TRACK_NAME));
            }
            int lane = lanes.place(pid + "/jvm", span.start, span.end);
            runtimeEvent(out, span, lane == 0 ? JVM_TRACK : out.track(pid, JVM_TRACK, Lanes.name(JVM_TRACK_NAME, lane)));
            if (subject != JVM_TRACK) {
                int l = lanes.place(pid + "/" + subject, span.start, span.end);
                runtimeEvent(out, span, out.track(pid, subject, Lanes.name("JVM runtime", l)));
            }
        }
    }

    /**
     * The thread with calls that the span concerns, else its subject by the file's own numbering (header ids are OS ids
     * on Windows, Java ids in portable files): an OS id among Java ids would be a track of its own for the same thread.
     */
    private static int subjectTrack(RuntimeSpans.Span span, Set<Long> threads) {
        for (long key : threads) {
            if (span.concerns((int) (key >>> 32), (int) key)) {
                return (int) key;
            }
        }
        return (int) span.subjectHeaderId();
    }

    /** A span as a slice named by its class, an instant as "CLASS TYPE"; the event's fields and subject as args. */
    private static void runtimeEvent(Output out, RuntimeSpans.Span span, int tid) throws OutputFailed {
        Map<String, Object> args = span.fields();
        args.put("osThreadId", span.first.osThreadId());
        args.put("javaThreadId", span.first.javaThreadId);
        String cat = "jetw.jvm." + span.cls.family;
        if (span.instant()) {
            out.emit(out.event("i", span.processId, tid, cat, span.cls.name + " " + span.first.layout.typeName, span.start, args));
        } else {
            out.slice(span.processId, tid, cat, span.cls.name, span.start, span.end); // its fields: in the .pftrace
        }
    }

    private static JsonWriter meta(String what, int pid, int tid, String name) {
        return new JsonWriter().beginObject().field("name", what).field("ph", "M").field("pid", pid).field("tid", tid)
                .name("args").beginObject().field("name", name).endObject();
    }

    /** A top-level call or checkpoint and its tree, when it overlaps the window, nested on its thread's track. */
    private static void node(Output out, NestedCalls nested, Map<Long, Long> cursor, CallNode root, int pid, int tid,
                             TimeWindow window) throws IOException {
        if (!window.overlaps(root.time(), root.endOr(out.context.lastFileTime))) {
            return;
        }
        out.thread(pid, tid);
        long key = (long) pid << 32 | (tid & 0xFFFFFFFFL);
        cursor.put(key, nested.write(root, cursor.getOrDefault(key, Long.MIN_VALUE), Long.MAX_VALUE, new NestedCalls.Writer() {
            @Override
            public void checkpoint(CallNode n, long at) throws IOException {
                Map<String, Object> args = new LinkedHashMap<>();
                args.put("methodId", n.methodId);
                out.emit(out.event("i", pid, tid, "jetw.checkpoint", n.text, at, args));
            }

            @Override
            public void begin(CallNode n, long start, long end) throws IOException {
                out.begin(pid, tid, category(n), name(n), start);
            }

            @Override
            public void end(CallNode n, long start, long end) throws IOException {
                out.end(pid, tid, category(n), name(n), end);
                if (n.threw()) {
                    Map<String, Object> args = new LinkedHashMap<>();
                    args.put("methodId", n.methodId);
                    args.put("instanceId", n.instanceId);
                    out.emit(out.event("i", pid, tid, "jetw.exception", n.text, end, args));
                }
            }

            private String name(CallNode n) {
                return n.task ? "task" : out.context.names.method(n.methodId);
            }
        }));
    }

    /**
     * "jetw" (a call) or "jetw.task", and the flags of this one call as more categories (speedscope keys
     * frames by name and args only, so they split nothing): "exception" (it threw: an instant named by the
     * exception's class follows its end), "unfinished" (still running at stop: it lasts until the file's last record).
     */
    private static String category(CallNode n) {
        String cat = n.task ? "jetw.task" : "jetw";
        if (n.threw()) {
            cat += ",exception";
        }
        if (!n.finished()) {
            cat += ",unfinished";
        }
        return cat;
    }
}
