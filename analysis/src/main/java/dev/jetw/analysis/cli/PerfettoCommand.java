package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.TimeOrderedRecords;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code perfetto FILE [OUT.pftrace]}: Perfetto's own protobuf trace ({@link PerfettoTrace}), for
 * traces of any size (the UI loads a .pftrace of millions of slices; the JSON of chrome-trace is about
 * ten times larger and parsed whole). Tracks:
 * <ul>
 *   <li>a process track per process ("jetw SESSION": the UI shows the pid beside it) and a thread track per thread with jetw
 *       calls, named by jetw's Thread rundown: each call a slice (SLICE_BEGIN/SLICE_END, name = method,
 *       debug annotations methodId, instanceId, exception, unfinished), each checkpoint an INSTANT;</li>
 *   <li>when the file has kernel events: under each thread the tracks of {@link KernelTracks} ("CPU
 *       state": Running / Ready / Waiting (REASON) with who woke the thread; "CPU samples"; "Disk I/O"
 *       slices on lanes), for the threads with jetw calls and the other threads of their processes (named
 *       by the kernel's Thread records), or every thread when the file has no jetw calls;</li>
 *   <li>under each process, the JVM runtime events (jvm= option) as slices, one track per event class,
 *       with more lanes ("JvmGc 2") where spans of a class overlap.</li>
 * </ul>
 * Slices on one track must nest (Perfetto drops what does not): a call tree is written depth first,
 * each call clamped into its parent and after its previous sibling (END-before-START order, skew,
 * unbalanced calls); clamped calls are counted and reported. A task handed over from a traced call
 * (CrossThreadLinks) is a slice "task" (its queue wait an annotation) over its calls that terminates a flow begun by the
 * submitting call's slice (flow id: process id and the task's DEQUEUE instance id), drawn as an arrow. Streaming as {@code tree}: names and
 * runtime spans from a first pass, then each top-level tree is written when complete.
 */
final class PerfettoCommand {

    private PerfettoCommand() {
    }

    static Path defaultOutput(Path etl) {
        String name = etl.getFileName().toString();
        String base = name.toLowerCase(Locale.ROOT).endsWith(".etl") ? name.substring(0, name.length() - 4) : name;
        return etl.resolveSibling(base + ".pftrace");
    }

    static int run(List<Path> files, CommandOptions o, PrintStream out, PrintStream err) {
        int status = EtlTool.OK;
        for (Path f : files) {
            Path target = o.output != null ? o.output : defaultOutput(f);
            // A name the user did not type is replaced only out loud (an earlier export of the same trace, usually).
            boolean replacing = o.output == null && Files.exists(target);
            Export[] done = {null};
            boolean[] writeFailed = {false};
            status = EtlTool.worse(status, EtlFileRun.run(f, err, reader -> {
                Progress progress = Progress.forCommand(err, o, "perfetto " + f);
                try {
                    TraceContext context = TraceContext.read(f, progress);
                    OutputStream os;
                    try {
                        os = new BufferedOutputStream(Files.newOutputStream(target), 1 << 16);
                    } catch (IOException e) {
                        err.println("jetw etl: cannot write " + target + ": " + e.getMessage());
                        writeFailed[0] = true;
                        return;
                    }
                    try (PerfettoTrace trace = new PerfettoTrace(os)) {
                        Export x = new Export(trace, reader, context, o);
                        x.run(progress);
                        done[0] = x;
                    }
                } finally {
                    progress.done();
                }
            }));
            if (writeFailed[0]) {
                status = EtlTool.worse(status, EtlTool.BAD_FILE);
            } else if (done[0] != null) {
                out.println(target);
                if (replacing) {
                    err.println("jetw etl: replaced the existing " + target + " (give the output name to choose another)");
                }
                err.println(done[0].describe(target));
            }
        }
        return status;
    }

    /** One file's export: the tracks written so far and what was counted. */
    static final class Export implements KernelTracks.Sink {
        private final PerfettoTrace trace;
        private final EtlReader reader;
        private final TraceContext context;
        private final CommandOptions o;
        private final TimeWindow window;
        private final NestedCalls nested;
        private final KernelTracks kernel;
        private long nextUuid = 1;
        private final Map<Integer, Long> processTracks = new HashMap<>();
        private final Map<Long, Long> threadTracks = new HashMap<>();
        private final Map<String, Long> childTracks = new HashMap<>();
        /** Per thread track: where its last top-level tree ended (the next may not begin before). */
        private final Map<Long, Long> cursor = new HashMap<>();
        long calls;
        long checkpoints;
        long runtimeSpans;
        long flows;
        /** Records that arrived too far out of time order to be placed (TimeOrderedRecords). */
        long late;
        private IOException failed;

        Export(PerfettoTrace trace, EtlReader reader, TraceContext context, CommandOptions o) {
            this.trace = trace;
            this.reader = reader;
            this.context = context;
            this.o = o;
            this.window = o.window(reader.header().startTime());
            this.nested = new NestedCalls(context.lastFileTime);
            this.kernel = new KernelTracks(context, o, window, reader.header().perfFreq(), this);
        }

        String describe(Path target) {
            long missing = kernel.missingSwitchIns();
            return String.format(Locale.ROOT, "jetw etl: %s: %,d packets: %,d calls, %,d checkpoints, %,d CPU state slices,"
                            + " %,d CPU samples, %,d disk I/Os, %,d JVM runtime events, %,d hand-off flows%s%s", target, trace.packets, calls,
                    checkpoints, kernel.cpuSlices, kernel.samples, kernel.diskIos, runtimeSpans, flows,
                    nested.clamped > 0 ? String.format(Locale.ROOT, "; %,d calls clamped into their parent to nest", nested.clamped) : "",
                    kernel.outOfOrder > 0 ? String.format(Locale.ROOT, "; %,d kernel events out of time order skipped",
                            kernel.outOfOrder) : "")
                    + (missing > 0 ? String.format(Locale.ROOT, "; %,d switch-ins missing in the trace (time around them"
                            + " estimated)", missing) : "")
                    + (late > 0 ? String.format(Locale.ROOT, "; %,d records later in the file than the reorder window"
                            + " (%d s or %,d records) could place", late, TimeOrderedRecords.DEFAULT_HORIZON_100NS / 10_000_000,
                            TimeOrderedRecords.DEFAULT_MAX_HELD) : "");
        }

        void run(Progress progress) throws IOException {
            CallTreeBuilder builder = new CallTreeBuilder((pid, tid, root) -> {
                if (failed == null) {
                    try {
                        root(pid, tid, root);
                    } catch (IOException e) {
                        failed = e;
                    }
                }
            });
            late = kernel.readInTimeOrder(reader, progress, builder, () -> {
                if (failed != null) {
                    throw failed;
                }
            });
            builder.finish();
            if (failed != null) {
                throw failed;
            }
            runtime();
        }

        private long process(int pid) throws IOException {
            Long uuid = processTracks.get(pid);
            if (uuid == null) {
                uuid = nextUuid++;
                processTracks.put(pid, uuid);
                trace.processTrack(uuid, pid, "jetw " + reader.header().loggerName()); // the pid is the descriptor's own field
            }
            return uuid;
        }

        private long thread(int pid, int tid) throws IOException {
            long key = (long) pid << 32 | (tid & 0xFFFFFFFFL);
            Long uuid = threadTracks.get(key);
            if (uuid == null) {
                long parent = process(pid);
                uuid = nextUuid++;
                threadTracks.put(key, uuid);
                String name = context.labels.track(pid, tid);
                trace.threadTrack(uuid, parent, pid, tid, name != null ? name : "tid " + tid);
            }
            return uuid;
        }

        private long child(long parent, String name) throws IOException {
            String key = parent + "/" + name;
            Long uuid = childTracks.get(key);
            if (uuid == null) {
                uuid = nextUuid++;
                childTracks.put(key, uuid);
                trace.childTrack(uuid, parent, name);
            }
            return uuid;
        }

        // ---- calls ----

        private void root(int pid, int tid, CallNode root) throws IOException {
            if (!window.overlaps(root.time(), root.endOr(context.lastFileTime))) {
                return;
            }
            long track = thread(pid, tid);
            cursor.put(track, nested.write(root, cursor.getOrDefault(track, Long.MIN_VALUE), Long.MAX_VALUE, new NestedCalls.Writer() {
                @Override
                public void checkpoint(CallNode n, long at) throws IOException {
                    trace.event(PerfettoTrace.INSTANT, at, track, "jetw.checkpoint", n.text);
                    trace.annotate("methodId", n.methodId);
                    trace.endEvent();
                    checkpoints++;
                }

                @Override
                public void begin(CallNode n, long start, long end) throws IOException {
                    slice(pid, n, track, start);
                }

                @Override
                public void end(CallNode n, long start, long end) throws IOException {
                    trace.end(end, track);
                }
            }));
        }

        /** A call's (or task's) SLICE_BEGIN with its annotations and flows. */
        private void slice(int pid, CallNode n, long track, long s) throws IOException {
            CrossThreadLinks.Link task = n.task ? context.links.task(pid, n.instanceId) : null;
            if (n.task) {
                trace.event(PerfettoTrace.SLICE_BEGIN, s, track, "jetw.task", "task"); // one name: the queue wait is an annotation
            } else {
                trace.event(PerfettoTrace.SLICE_BEGIN, s, track, "jetw", context.names.method(n.methodId));
                trace.annotate("methodId", n.methodId);
            }
            trace.annotate("instanceId", n.instanceId);
            if (task != null) {
                trace.annotate("queueWaitNs", task.waitNanos);
                trace.annotate("handoff", CrossThreadLinks.kindName(task.kind));
                if (task.resolved()) {
                    trace.terminatingFlow(flowId(task));
                }
            }
            for (CrossThreadLinks.Link l : context.links.submittedFrom(pid, n.instanceId)) {
                if (l.resolved() && o.threadMatches(l.taskThreadId)) {
                    trace.flow(flowId(l));
                    flows++;
                }
            }
            if (n.threw()) {
                trace.annotate("exception", n.text);
            }
            if (!n.finished()) {
                trace.annotate("unfinished", "running at stop: cut at the file's last record");
            }
            trace.endEvent();
            calls++;
        }

        /** A hand-off's flow id, the same from both ends: the process and the task's DEQUEUE instance id. */
        private static long flowId(CrossThreadLinks.Link l) {
            return (long) l.processId << 32 | l.dequeueInstanceId & 0xFFFFFFFFL;
        }

        // ---- kernel (KernelTracks) ----

        @Override
        public void slice(int pid, int tid, String track, long from, long to, String name, Map<String, Object> args)
                throws IOException {
            long uuid = child(thread(pid, tid), track);
            trace.event(PerfettoTrace.SLICE_BEGIN, from, uuid, "kernel", name);
            annotate(args);
            trace.endEvent();
            trace.end(to, uuid);
        }

        @Override
        public void instant(int pid, int tid, String track, long at, String name, Map<String, Object> args)
                throws IOException {
            trace.event(PerfettoTrace.INSTANT, at, child(thread(pid, tid), track), "kernel", name);
            annotate(args);
            trace.endEvent();
        }

        private void annotate(Map<String, Object> args) {
            for (Map.Entry<String, Object> a : args.entrySet()) {
                if (a.getValue() instanceof Number) {
                    trace.annotate(a.getKey(), ((Number) a.getValue()).longValue());
                } else {
                    trace.annotate(a.getKey(), String.valueOf(a.getValue()));
                }
            }
        }

        // ---- JVM runtime ----

        /** Runtime spans by start time, each class of a process on its own lanes so that spans never overlap on a track. */
        private void runtime() throws IOException {
            Lanes lanes = new Lanes();
            for (RuntimeSpans.Span span : context.runtime.all()) {
                if (!window.overlaps(span.start, span.end)) {
                    continue;
                }
                if (o.thread != null && !span.cls.jvmWide && !span.concerns(span.processId, o.thread)) {
                    continue;
                }
                int lane = lanes.place(span.processId + "/" + span.cls.name, span.start, span.end);
                long track = child(process(span.processId), Lanes.name(span.cls.name, lane));
                int type = span.instant() ? PerfettoTrace.INSTANT : PerfettoTrace.SLICE_BEGIN;
                trace.event(type, span.start, track, "jetw.jvm." + span.cls.family, span.label());
                trace.annotate("osThreadId", span.first.osThreadId());
                trace.annotate("javaThreadId", span.first.javaThreadId);
                trace.endEvent();
                if (!span.instant()) {
                    trace.end(span.end, track);
                }
                runtimeSpans++;
            }
        }
    }
}
