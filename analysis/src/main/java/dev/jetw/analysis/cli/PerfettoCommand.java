package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.TimeOrderedRecords;
import dev.jetw.analysis.kernel.KernelDecoder;
import dev.jetw.analysis.kernel.KernelEvent;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code perfetto FILE [OUT.pftrace]}: Perfetto's own protobuf trace ({@link PerfettoTrace}), for
 * traces of any size (the UI loads a .pftrace of millions of slices; the JSON of chrome-trace is about
 * ten times larger and parsed whole). Tracks:
 * <ul>
 *   <li>a process track per process ("jetw SESSION (pid N)") and a thread track per thread with jetw
 *       calls, named by jetw's Thread rundown: each call a slice (SLICE_BEGIN/SLICE_END, name = method,
 *       debug annotations methodId, instanceId, exception, unfinished), each checkpoint an INSTANT;</li>
 *   <li>when the file has kernel events: under each thread, "CPU state (CSwitch)" with "Running" and
 *       "Waiting (KWAIT_REASON n)" slices between its context switches, "CPU samples" (SampledProfile
 *       instants) and "Disk I/O" (DiskIo Read/Write instants at completion, with size and duration);
 *       the threads are those with jetw calls, or every thread when the file has none;</li>
 *   <li>under each process, the JVM runtime events (jvm= option) as slices, one track per event class,
 *       with more lanes ("JvmGc 2") where spans of a class overlap.</li>
 * </ul>
 * Slices on one track must nest (Perfetto drops what does not): a call tree is written depth first,
 * each call clamped into its parent and after its previous sibling (END-before-START order, skew,
 * unbalanced calls); clamped calls are counted and reported. A task handed over from a traced call
 * (CrossThreadLinks) is a slice "task (queued X ms)" over its calls that terminates a flow begun by the
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
    static final class Export {
        private final PerfettoTrace trace;
        private final EtlReader reader;
        private final TraceContext context;
        private final CommandOptions o;
        private final TimeWindow window;
        private long nextUuid = 1;
        private final Map<Integer, Long> processTracks = new HashMap<>();
        private final Map<Long, Long> threadTracks = new HashMap<>();
        private final Map<String, Long> childTracks = new HashMap<>();
        /** Per track: the time of its last event (events of a track go out in time order). */
        private final Map<Long, Long> cursor = new HashMap<>();
        /** Per thread: {time switched in or NONE, time switched out or NONE, wait reason of the switch out}. */
        private final Map<Integer, long[]> cpuState = new HashMap<>();
        private final Map<Integer, Integer> kernelPids = new HashMap<>();
        long calls;
        long checkpoints;
        long clamped;
        long kernelOutOfOrder;
        long cpuSlices;
        long samples;
        long diskIos;
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
        }

        String describe(Path target) {
            return String.format(Locale.ROOT, "jetw etl: %s: %,d packets: %,d calls, %,d checkpoints, %,d CPU state slices,"
                            + " %,d CPU samples, %,d disk I/Os, %,d JVM runtime events, %,d hand-off flows%s%s", target, trace.packets, calls,
                    checkpoints, cpuSlices, samples, diskIos, runtimeSpans, flows,
                    clamped > 0 ? String.format(Locale.ROOT, "; %,d calls clamped into their parent to nest", clamped) : "",
                    kernelOutOfOrder > 0 ? String.format(Locale.ROOT, "; %,d kernel events out of time order skipped",
                            kernelOutOfOrder) : "")
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
            // Buffers of different processors and writers interleave in the file: kernel state machines and
            // per-track time order need the records in time order.
            TimeOrderedRecords ordered = new TimeOrderedRecords(reader);
            for (EtlRecord r = ordered.next(); r != null; r = ordered.next()) {
                progress.record(reader, 2, 2);
                JetwEvent e = JetwEvent.decode(r);
                if (e != null) {
                    if (o.threadMatches(r.threadId())) {
                        builder.accept(r, e);
                    }
                } else {
                    KernelEvent k = KernelDecoder.decode(r);
                    if (k != null) {
                        kernel(k);
                    }
                }
                if (failed != null) {
                    throw failed;
                }
            }
            late = ordered.late();
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
                trace.processTrack(uuid, pid, "jetw " + reader.header().loggerName() + " (pid " + pid + ")");
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
                String name = context.names.thread(pid, tid);
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
            long lo = cursor.getOrDefault(track, Long.MIN_VALUE);
            cursor.put(track, node(pid, root, track, lo, Long.MAX_VALUE));
        }

        /** Writes a call and its children inside [lo, hi]; returns where the next sibling may start. */
        private long node(int pid, CallNode n, long track, long lo, long hi) throws IOException {
            if (n.checkpoint) {
                long t = clamp(n.start, lo, hi);
                trace.event(PerfettoTrace.INSTANT, t, track, "jetw.checkpoint", n.text);
                trace.annotate("methodId", n.methodId);
                trace.endEvent();
                checkpoints++;
                return t;
            }
            if (n.start == CallNode.NONE) { // END without START: its children stand at its level
                long c = lo;
                for (CallNode child : n.children) {
                    c = node(pid, child, track, c, hi);
                }
                return c;
            }
            long rawEnd = n.finished() ? n.end : Math.max(n.start, context.lastFileTime);
            long s = clamp(n.start, lo, hi);
            long e = clamp(rawEnd, s, hi);
            if (s != n.start || e != rawEnd) {
                clamped++;
            }
            CrossThreadLinks.Link task = n.task ? context.links.task(pid, n.instanceId) : null;
            if (n.task) {
                trace.event(PerfettoTrace.SLICE_BEGIN, s, track, "jetw.task",
                        task == null ? "task" : "task (queued " + Text.millis(task.waitNanos / 100) + " ms)");
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
            long c = s;
            for (CallNode child : n.children) {
                c = node(pid, child, track, c, e);
            }
            trace.end(e, track);
            return e;
        }

        /** A hand-off's flow id, the same from both ends: the process and the task's DEQUEUE instance id. */
        private static long flowId(CrossThreadLinks.Link l) {
            return (long) l.processId << 32 | l.dequeueInstanceId & 0xFFFFFFFFL;
        }

        private static long clamp(long t, long lo, long hi) {
            return Math.max(lo, Math.min(t, hi));
        }

        // ---- kernel ----

        /** The kernel track of thread {@code tid} named {@code what}, or null when the thread is not exported. */
        private Long kernelTrack(int tid, String what) throws IOException {
            if (tid <= 0 || !o.threadMatches(tid)) {
                return null;
            }
            Integer pid = context.callThreads.get(tid);
            if (pid == null) {
                if (!context.callThreads.isEmpty()) {
                    return null; // a jetw trace: only its own threads
                }
                pid = kernelPids.getOrDefault(tid, 0);
            }
            return child(thread(pid, tid), what);
        }

        private void kernel(KernelEvent k) throws IOException {
            String name = k.fullName();
            long t = k.fileTime();
            if (name.equals("Thread/Start") || name.equals("Thread/DCStart")) {
                kernelPids.put(k.threadId(), k.processId());
            } else if (name.equals("Thread/CSwitch")) {
                cswitch(k, t);
            } else if (name.equals("PerfInfo/SampledProfile") && window.contains(t)) {
                Long track = kernelTrack(k.threadId(), "CPU samples");
                if (track != null && inOrder(track, t)) {
                    trace.event(PerfettoTrace.INSTANT, t, track, "kernel", "CPU sample");
                    trace.endEvent();
                    samples++;
                } else if (track != null) {
                    kernelOutOfOrder++;
                }
            } else if ((name.equals("DiskIo/Read") || name.equals("DiskIo/Write")) && window.contains(t)) {
                Long track = kernelTrack(k.threadId(), "Disk I/O");
                if (track != null && inOrder(track, t)) {
                    trace.event(PerfettoTrace.INSTANT, t, track, "kernel", name);
                    trace.annotate("bytes", k.size());
                    long ticks = k.elapsedTicks();
                    if (ticks >= 0) {
                        long raw = k.rawTimestamp();
                        long dur = reader.timestamps().toFileTime(raw) - reader.timestamps().toFileTime(raw - ticks);
                        trace.annotate("durationUs", dur / 10);
                    }
                    trace.annotate("byteOffset", k.byteOffset());
                    trace.endEvent();
                    diskIos++;
                } else if (track != null) {
                    kernelOutOfOrder++;
                }
            }
        }

        /** A context switch ends the old thread's "Running" slice and the new thread's wait. */
        private void cswitch(KernelEvent k, long t) throws IOException {
            int in = k.newThreadId();
            int outTid = k.oldThreadId();
            long[] old = cpuState.computeIfAbsent(outTid, x -> new long[] {CallNode.NONE, CallNode.NONE, -1});
            if (old[0] != CallNode.NONE) {
                stateSlice(outTid, old[0], t, "Running");
            }
            old[0] = CallNode.NONE;
            old[1] = t;
            old[2] = k.oldThreadWaitReason();
            long[] fresh = cpuState.computeIfAbsent(in, x -> new long[] {CallNode.NONE, CallNode.NONE, -1});
            if (fresh[1] != CallNode.NONE) {
                stateSlice(in, fresh[1], t, "Waiting (KWAIT_REASON " + fresh[2] + ")");
            }
            fresh[0] = t;
            fresh[1] = CallNode.NONE;
        }

        private void stateSlice(int tid, long from, long to, String name) throws IOException {
            if (!window.overlaps(from, to)) {
                return;
            }
            Long track = kernelTrack(tid, "CPU state (CSwitch)");
            if (track == null) {
                return;
            }
            if (to < from || !inOrder(track, from)) {
                kernelOutOfOrder++;
                return;
            }
            trace.event(PerfettoTrace.SLICE_BEGIN, from, track, "kernel", name);
            trace.endEvent();
            trace.end(to, track);
            cursor.put(track, to);
            cpuSlices++;
        }

        /** True when {@code t} is not before the track's last event (and makes it the last). */
        private boolean inOrder(long track, long t) {
            Long last = cursor.get(track);
            if (last != null && t < last) {
                return false;
            }
            cursor.put(track, t);
            return true;
        }

        // ---- JVM runtime ----

        /** Runtime spans by start time, each class of a process on its own lanes so that spans never overlap on a track. */
        private void runtime() throws IOException {
            Map<String, List<Long>> laneEnds = new HashMap<>();
            for (RuntimeSpans.Span span : context.runtime.all()) {
                if (!window.overlaps(span.start, span.end)) {
                    continue;
                }
                if (o.thread != null && !span.cls.jvmWide && !span.concerns(span.processId, o.thread)) {
                    continue;
                }
                String key = span.processId + "/" + span.cls.name;
                List<Long> ends = laneEnds.computeIfAbsent(key, x -> new ArrayList<>());
                int lane = 0;
                while (lane < ends.size() && ends.get(lane) > span.start) {
                    lane++;
                }
                if (lane == ends.size()) {
                    ends.add(span.end);
                } else {
                    ends.set(lane, span.end);
                }
                long track = child(process(span.processId), span.cls.name + (lane == 0 ? "" : " " + (lane + 1)));
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
