package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.analysis.kernel.KernelClass;
import dev.jetw.analysis.kernel.KernelDecoder;
import dev.jetw.analysis.kernel.KernelEvent;
import dev.jetw.analysis.kernel.KernelProcessNames;
import dev.jetw.analysis.kernel.KernelThreadNames;
import dev.jetw.etl.TimeOrderedRecords;
import dev.jetw.analysis.why.Breakdown;
import dev.jetw.analysis.why.CallSelector;
import dev.jetw.analysis.why.CpuHolders;
import dev.jetw.analysis.why.ExplainedCall;
import dev.jetw.analysis.why.FileIoUsage;
import dev.jetw.analysis.why.ReadyCpus;
import dev.jetw.analysis.why.ThreadIds;
import dev.jetw.analysis.why.TraceContents;
import dev.jetw.analysis.why.TracedThreads;
import dev.jetw.analysis.why.Usage;
import dev.jetw.analysis.why.Waker;
import dev.jetw.analysis.why.WakerCalls;
import dev.jetw.analysis.why.WhyAnalysis;
import dev.jetw.etl.EventType;
import dev.jetw.etl.SessionNotice;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code why [--slowest N | --instance ID] [--thread TID] [--json] FILE...}: where the wall time of
 * chosen calls went ({@link dev.jetw.analysis.why}). Two passes over the file: the first chooses the calls
 * and learns what the trace holds and how its threads are numbered, the second gathers the evidence
 * on the chosen calls' threads during the calls. This class only feeds records to the analysis and
 * prints; the breakdown logic is in {@code dev.jetw.analysis.why}.
 */
final class WhyCommand {

    static final int DEFAULT_SLOWEST = 3;

    /** What only why asks for: the N slowest top-level calls, or the calls with one instance id. */
    static final class Options {
        int slowest = DEFAULT_SLOWEST;
        Integer instance;
    }

    /** Pass one's findings. */
    static final class Scan {
        final ThreadIds ids = new ThreadIds();
        final TraceContents contents = new TraceContents();
        final JetwNames names = new JetwNames();
        final KernelThreadNames kernelNames = new KernelThreadNames();
        final KernelProcessNames processNames = new KernelProcessNames();
        final TracedThreads traced = new TracedThreads();
        final ThreadLabels labels = new ThreadLabels(names, kernelNames, traced);
        final CallSelector selector;
        /** The WRITER notice's text (what wrote the file), or null (ETW wrote it, or the notice had no room). */
        String writer;

        Scan(CallSelector selector) {
            this.selector = selector;
        }

        /**
         * Whether the trace's context switches are those of the traced processes' threads only: the portable
         * backend's (it names itself in the WRITER notice of every file it writes, in buffer 0), whose only kernel
         * source is the Linux collector, whose pid filter records a switch only when a followed thread leaves or
         * takes a CPU (docs/linux-kernel-events.md). ETW's kernel logger records every switch.
         */
        boolean switchesOfTracedThreadsOnly() {
            return writer != null && writer.startsWith(PORTABLE_WRITER);
        }

        /**
         * The threads every switch of which is in the trace (the traced processes': jetw's threads and the threads
         * the kernel's Thread records give those processes), or null when every thread's is.
         */
        java.util.function.LongPredicate recordedInFull() {
            if (!switchesOfTracedThreadsOnly()) {
                return null;
            }
            java.util.Set<Integer> processes = traced.processes();
            return tid -> traced.ofKernelThread(tid) >= 0 || processes.contains(kernelNames.processId(tid));
        }
    }

    /** How the portable backend's WRITER notice begins ("jetw portable backend, Java 17.0.15, Linux 6.18.0 amd64"). */
    static final String PORTABLE_WRITER = "jetw portable backend";

    private WhyCommand() {
    }

    static int run(List<Path> files, Options o, CommandOptions common, PrintStream out, PrintStream err) {
        int status = EtlTool.OK;
        for (Path f : files) {
            status = EtlTool.worse(status, EtlFileRun.run(f, err, reader -> {
                TimeWindow window = common.window(reader.header().startTime());
                CallSelector selector = new CallSelector(o.slowest, o.instance, common.thread);
                selector.startingBetween(window.from, window.to);
                Progress progress = Progress.forCommand(err, common, "why " + f);
                Scan scan = scan(reader, selector, progress);
                List<Breakdown> found = explain(f, scan, scan.selector.chosen(), true, progress);
                progress.done();
                long sessionStart = reader.header().startTime();
                if (common.json) {
                    out.println(json(f, reader.header().loggerName(), o, scan, found, sessionStart));
                } else {
                    out.print(text(f, reader.header().loggerName(), o, common.thread, scan, found, sessionStart));
                }
            }));
        }
        return status;
    }

    /**
     * Pass one: names, thread numbering, what the trace holds, and (with a selector) the calls to explain.
     * Read in time order (TimeOrderedRecords), so that each thread's context switches come in the order
     * they happened (a switch-in missing from the trace is then told from per-processor buffers read out
     * of order).
     */
    static Scan scan(EtlReader reader, CallSelector selector, Progress progress) throws IOException {
        Scan s = new Scan(selector);
        TimeOrderedRecords ordered = new TimeOrderedRecords(reader);
        for (EtlRecord r = ordered.next(); r != null; r = ordered.next()) {
            if (progress != null) {
                progress.record(reader, 1, 2);
            }
            JetwEvent e = JetwEvent.decode(r);
            s.names.accept(r, e);
            if (e == null) {
                SessionNotice n = SessionNotice.decode(r);
                if (n != null && n.isWriter()) {
                    s.writer = n.text();
                }
                KernelEvent k = KernelClass.isKernelRecord(r) ? KernelDecoder.decode(r) : null;
                if (k != null) {
                    s.contents.kernel(k);
                    s.kernelNames.accept(k);
                    s.processNames.accept(k);
                }
            } else if (e.kind == JetwEvent.Kind.CALL_START || e.kind == JetwEvent.Kind.CALL_END) {
                s.traced.add(r.processId(), r.threadId());
                if (selector != null && e.kind == JetwEvent.Kind.CALL_START) {
                    selector.start(r.processId(), r.threadId(), r.instanceId(), r.parentInstanceId(), e.methodId, r.fileTime());
                } else if (selector != null) {
                    selector.end(r.processId(), r.threadId(), r.instanceId(), r.parentInstanceId(), e.methodId, r.fileTime());
                }
            } else if (e.kind == JetwEvent.Kind.THREAD && r.type() == EventType.DC_START) {
                s.ids.threadStart(r.processId(), r.threadId(), e.javaThreadId, e.threadOsId);
            } else if (e.kind == JetwEvent.Kind.RUNTIME) {
                s.ids.subject(r.processId(), e.osThreadId(), e.javaThreadId);
                s.contents.runtime(e.runtimeClass.name, e.runtimeClass.family);
            }
        }
        s.traced.resolve(s.ids);
        if (!s.traced.isEmpty()) {
            // The traced processes' threads, as the Perfetto export's CPU-state tracks (KernelTracks) count them.
            java.util.Set<Integer> processes = s.traced.processes();
            s.contents.countSwitchInsOf(tid -> s.traced.ofKernelThread(tid) >= 0 || processes.contains(s.kernelNames.processId(tid)));
        }
        return s;
    }

    /**
     * Pass two over a second reader of the file, in time order (a FileIo operation pairs with its OpEnd by IrpPtr,
     * which Windows reuses: in buffer order an OpEnd logged on another processor could meet the wrong operation):
     * the breakdowns of {@code calls}; a third over jetw's calls when a traced thread woke one of them (the
     * waker's call at that moment); with {@code whoHeldCpus}, one over the context switches when a call's thread
     * was ready inside it (who held the CPUs then).
     */
    static List<Breakdown> explain(Path file, Scan scan, List<ExplainedCall> calls, boolean whoHeldCpus, Progress progress)
            throws IOException {
        if (calls.isEmpty()) {
            return new ArrayList<>();
        }
        WhyAnalysis analysis;
        try (EtlReader reader = EtlReader.open(file)) {
            analysis = new WhyAnalysis(calls, scan.ids, scan.traced, scan.contents, reader.header().perfFreq(),
                    reader.timestamps());
            RuntimeSpans spans = new RuntimeSpans();
            TimeOrderedRecords ordered = new TimeOrderedRecords(reader);
            for (EtlRecord r = ordered.next(); r != null; r = ordered.next()) {
                if (progress != null) {
                    progress.record(reader, 2, 2);
                }
                JetwEvent e = JetwEvent.decode(r);
                if (e == null) {
                    KernelEvent k = KernelClass.isKernelRecord(r) ? KernelDecoder.decode(r) : null;
                    if (k != null) {
                        analysis.kernel(k);
                    }
                } else if (e.kind == JetwEvent.Kind.CALL_START) {
                    analysis.callStart(r.processId(), r.instanceId(), r.parentInstanceId(), r.fileTime());
                } else if (e.kind == JetwEvent.Kind.CALL_END) {
                    analysis.callEnd(r.processId(), r.instanceId(), r.parentInstanceId(), r.fileTime());
                } else if (e.kind == JetwEvent.Kind.RUNTIME) {
                    spans.accept(r, e);
                }
            }
            for (RuntimeSpans.Span s : spans.all()) {
                analysis.runtime(s.processId, s.cls.name, s.cls.jvmWide, s.first.osThreadId(), s.first.javaThreadId,
                        s.start, s.end);
            }
        }
        WakerCalls wakers = analysis.wakerCalls();
        if (!wakers.isEmpty()) {
            try (EtlReader reader = EtlReader.open(file)) {
                for (EtlRecord r = reader.next(); r != null; r = reader.next()) {
                    JetwEvent e = JetwEvent.decode(r);
                    if (e != null && e.kind == JetwEvent.Kind.CALL_START) {
                        wakers.start(r.processId(), r.threadId(), r.instanceId(), r.parentInstanceId(), e.methodId, r.fileTime());
                    } else if (e != null && e.kind == JetwEvent.Kind.CALL_END) {
                        wakers.end(r.processId(), r.threadId(), r.instanceId(), r.parentInstanceId(), e.methodId, r.fileTime());
                    }
                }
            }
            wakers.finish();
        }
        if (whoHeldCpus) {
            whoHeldCpus(file, scan, analysis, progress);
        }
        return analysis.breakdowns(wakers);
    }

    /**
     * Who held the CPUs while the calls' threads were ready: every Thread/CSwitch with its CPU (its buffer's
     * processor), in time order (TimeOrderedRecords: each CPU's switches must come in order). Read only when a
     * call was ready and the buffers are per CPU.
     */
    private static void whoHeldCpus(Path file, Scan scan, WhyAnalysis analysis, Progress progress) throws IOException {
        try (EtlReader reader = EtlReader.open(file)) {
            boolean perCpu = reader.header().buffersPerProcessor();
            CpuHolders holders = analysis.cpuHolders(reader.header().numberOfProcessors(), perCpu, scan.recordedInFull());
            if (!perCpu || !holders.anyReady()) {
                return;
            }
            TimeOrderedRecords ordered = new TimeOrderedRecords(reader);
            for (EtlRecord r = ordered.next(); r != null; r = ordered.next()) {
                if (progress != null) {
                    progress.record(reader, "who held the CPUs");
                }
                if (r.type() != 36 || !KernelClass.isKernelRecord(r)) {
                    continue; // CSwitch is Thread's type 36: skip the rest undecoded
                }
                KernelEvent k = KernelDecoder.decode(r);
                if (k != null && k.kernelClass() == KernelClass.THREAD) {
                    holders.contextSwitch(r.processor(), k.fileTime(), k.newThreadId() & 0xFFFFFFFFL,
                            k.oldThreadId() & 0xFFFFFFFFL);
                }
            }
            holders.finish();
        }
    }

    private static String selection(Options o, Scan scan, int found) {
        if (o.instance != null) {
            return found + " finished call" + (found == 1 ? "" : "s") + " with instance id " + o.instance;
        }
        return "the " + found + " slowest finished top-level call" + (found == 1 ? "" : "s") + " (asked for " + o.slowest + ")";
    }

    private static String text(Path f, String session, Options o, Integer thread, Scan scan, List<Breakdown> found,
                               long sessionStart) {
        StringBuilder s = new StringBuilder();
        s.append("== ").append(f).append(" (session ").append(Text.safe(session)).append("): ").append(selection(o, scan, found.size()));
        if (thread != null) {
            s.append(", thread ").append(thread);
        }
        s.append('\n');
        if (found.isEmpty()) {
            s.append("(no such finished jetw call in this file)\n");
        }
        List<String> common = commonNotes(found);
        for (String n : common) {
            s.append("note: ").append(n).append('\n');
        }
        int i = 1;
        for (Breakdown b : found) {
            ExplainedCall c = b.call;
            s.append('#').append(i++).append(' ').append(Text.millis(b.wall())).append(" ms  ")
                    .append(Text.safe(scan.names.method(c.methodId))).append("  inst ").append(c.instanceId).append("  thread ")
                    .append(c.threadId);
            String name = Text.safe(scan.names.thread(c.processId, c.threadId));
            if (name != null) {
                s.append(" \"").append(name).append('"');
            }
            s.append(" (pid ").append(c.processId).append(")  @+").append(Text.millis(c.start - sessionStart)).append(" ms\n");
            s.append(String.format(Locale.ROOT, "  %-44s %10s %8s%n", "", "ms", "% wall"));
            row(s, b, "traced children", b.children, b.childCalls + (b.childCalls == 1 ? " call" : " calls"));
            row(s, b, "self (not in a traced child)", b.self(), "");
            if (b.states != null) {
                for (Map.Entry<String, Long> st : b.states.entrySet()) {
                    row(s, b, st.getKey(), st.getValue(), "thread state, kernel tid " + b.kernelThreadId);
                }
            }
            wakerRows(s, b, scan, sessionStart);
            if (b.readyCpus != null) {
                s.append(String.format(Locale.ROOT, "  %-44s %10s %8s  %s%n", "CPUs while ready (% of the ready time)", "-", "-",
                        readyCpusDetail(b.readyCpus, scan, b.call.end)));
            }
            if (b.samples >= 0) {
                s.append(String.format(Locale.ROOT, "  %-44s %10s %8s  %d sample%s of the thread%n", "CPU samples", "-", "-",
                        b.samples, b.samples == 1 ? "" : "s"));
            }
            if (b.diskIo != null) {
                row(s, b, "disk I/O issued by the thread", b.diskIo.time, b.diskIo.count == 0 ? "none"
                        : b.diskIo.count + " request" + (b.diskIo.count == 1 ? "" : "s") + ", " + b.diskIo.bytes + " bytes");
            }
            if (b.fileIo != null) {
                row(s, b, "file I/O by the thread", b.fileIo.time, fileIoDetail(b.fileIo));
            }
            if (b.hardFaults != null) {
                row(s, b, "hard page faults", b.hardFaults.time, b.hardFaults.count == 0 ? "none"
                        : b.hardFaults.count + " fault" + (b.hardFaults.count == 1 ? "" : "s") + ", " + b.hardFaults.bytes + " bytes");
            }
            if (b.jvm != null) {
                if (b.jvm.isEmpty()) {
                    row(s, b, "JVM runtime events", 0, "none overlap this call");
                }
                for (Map.Entry<String, Usage> j : b.jvm.entrySet()) {
                    Usage u = j.getValue();
                    row(s, b, Text.safe(j.getKey()), u.time, u.count + " event" + (u.count == 1 ? "" : "s")
                            + (u.stopsEveryThread ? ", stops every thread" : ""));
                }
            }
            for (String n : b.notes) {
                if (!common.contains(n)) {
                    s.append("  note: ").append(n).append('\n');
                }
            }
        }
        if (scan.selector.halfSeen() > 0) {
            s.append("not considered: ").append(scan.selector.halfSeen())
                    .append(" calls with only a START (running at stop, or END lost) or only an END (START lost)\n");
        }
        return s.toString();
    }

    /** Wakers shown by name; the rest of a call's wakers are summed on one line. */
    static final int WAKERS_SHOWN = 3;

    /** "woken by thread "holder" (tid 1234)  6.000  20.0%  1 wake-up at +18.000 ms, in com.acme.Lock.release()V": the main wakers. */
    private static void wakerRows(StringBuilder s, Breakdown b, Scan scan, long sessionStart) {
        if (b.wakers == null) {
            return;
        }
        int shown = 0;
        long restTime = 0;
        int restWakers = 0;
        int restWakeups = 0;
        for (Waker w : b.wakers) {
            if (shown++ < WAKERS_SHOWN) {
                StringBuilder d = new StringBuilder().append(w.wakeups).append(w.wakeups == 1 ? " wake-up at +"
                        : " wake-ups, the longest wait ended at +").append(Text.millis(w.at - sessionStart)).append(" ms");
                if (w.call != null) {
                    d.append(", in ").append(Text.safe(scan.names.method(w.call.methodId))).append(" (inst ").append(w.call.instanceId)
                            .append(')');
                } else if (w.tracedThread >= 0) {
                    d.append(", in no traced call");
                }
                row(s, b, "woken by " + wakerName(w, scan), w.waited, d.toString());
            } else {
                restTime += w.waited;
                restWakers++;
                restWakeups += w.wakeups;
            }
        }
        if (restWakers > 0) {
            row(s, b, "woken by " + restWakers + " more thread" + (restWakers == 1 ? "" : "s"), restTime,
                    restWakeups + " wake-up" + (restWakeups == 1 ? "" : "s"));
        }
    }

    /** Threads and processes named on the "CPUs while ready" line; the rest are summed. */
    static final int HOLDERS_SHOWN = 3;
    /** Threads and processes listed in the JSON's cpusWhileReady; the rest are summed. */
    static final int HOLDERS_LISTED = 10;

    /**
     * "2 CPUs x 2.000 ms: thread "hog" (tid 7001, pid 7000 "sh") 1.500 ms 75.0%, idle 0.500 ms 25.0%, 2 more
     * threads 0.800 ms 40.0%, switches not recorded 0.100 ms 5.0%, unknown 0.100 ms 5.0%; by process: "sh"
     * (pid 7000) 2.300 ms 115.0%, ...": who held the CPUs while the thread was ready, each as a share of the ready
     * time (they add up to CPUs x 100%, up to rounding: each share is rounded to 0.1%); "at most" before an upper
     * bound (a trace of the traced processes' switches only: another process's thread, idle).
     */
    static String readyCpusDetail(ReadyCpus r, Scan scan, long at) {
        StringBuilder d = new StringBuilder().append(r.cpus.size()).append(r.cpus.size() == 1 ? " CPU x " : " CPUs x ")
                .append(Text.millis(r.ready)).append(" ms:");
        List<String> parts = new ArrayList<>();
        long restTime = 0;
        int rest = 0;
        boolean restAtMost = false;
        for (ReadyCpus.Holder h : r.threads) {
            if (parts.size() < HOLDERS_SHOWN) {
                parts.add(holderName(h.threadId, scan, at) + " " + atMost(h.atMost) + share(h.time, r));
            } else {
                restTime += h.time;
                rest++;
                restAtMost |= h.atMost;
            }
        }
        if (rest > 0) {
            parts.add(rest + " more thread" + (rest == 1 ? " " : "s ") + atMost(restAtMost) + share(restTime, r));
        }
        if (r.idle > 0) {
            parts.add("idle " + atMost(r.idleAtMost) + share(r.idle, r));
        }
        if (r.notRecorded > 0) {
            parts.add("switches not recorded " + share(r.notRecorded, r));
        }
        if (r.beforeFirstSwitch > 0) {
            parts.add("unknown " + share(r.beforeFirstSwitch, r));
        }
        d.append(' ').append(parts.isEmpty() ? "no thread" : String.join(", ", parts));
        List<ReadyCpus.ProcessHolder> processes = r.byProcess(tid -> processOf(tid, scan, at));
        if (!processes.isEmpty()) {
            List<String> p = new ArrayList<>();
            for (int i = 0; i < processes.size() && i < HOLDERS_SHOWN; i++) {
                ReadyCpus.ProcessHolder h = processes.get(i);
                p.add(processLabel(h.processId, scan, at) + " " + atMost(h.atMost) + share(h.time, r));
            }
            if (processes.size() > HOLDERS_SHOWN) {
                p.add((processes.size() - HOLDERS_SHOWN) + " more");
            }
            d.append("; by process: ").append(String.join(", ", p));
        }
        return d.toString();
    }

    /** "at most " before an upper bound (a trace of some threads' switches only: {@link ReadyCpus.Holder#atMost}). */
    private static String atMost(boolean atMost) {
        return atMost ? "at most " : "";
    }

    private static String share(long time, ReadyCpus r) {
        return Text.millis(time) + " ms " + String.format(Locale.ROOT, "%.1f%%", 100.0 * time / r.ready);
    }

    /** A holder's process at {@code at}: the kernel's Thread records, else jetw's (a traced thread), else -1. */
    static int processOf(long tid, Scan scan, long at) {
        int p = scan.kernelNames.processId(tid, at);
        if (p < 0) {
            long t = scan.traced.ofKernelThread(tid);
            p = t >= 0 ? TracedThreads.processOf(t) : -1;
        }
        return p;
    }

    /** "thread "hog" (tid 7001, pid 7000 "sh")", "thread (tid 7001)". */
    private static String holderName(long tid, Scan scan, long at) {
        int pid = processOf(tid, scan, at);
        String n = Text.safe(scan.labels.name(tid, pid, at));
        StringBuilder s = new StringBuilder("thread ");
        if (n != null) {
            s.append('"').append(n).append("\" ");
        }
        s.append("(tid ").append(tid);
        if (pid >= 0) {
            s.append(", pid ").append(pid);
            String p = Text.safe(scan.processNames.name(pid, at));
            if (p != null) {
                s.append(" \"").append(p).append('"');
            }
        }
        return s.append(')').toString();
    }

    /** "\"sh\" (pid 7000)", "pid 7000", "unknown processes". */
    private static String processLabel(int pid, Scan scan, long at) {
        if (pid < 0) {
            return "unknown processes";
        }
        String p = Text.safe(scan.processNames.name(pid, at));
        return p != null ? "\"" + p + "\" (pid " + pid + ")" : "pid " + pid;
    }

    /** "thread "holder" (tid 1234)", "an interrupt or idle CPU": a waker as {@link ThreadLabels} names it, for text. */
    static String wakerName(Waker w, Scan scan) {
        return Text.safe(scan.labels.waker(w.threadId, w.processId, w.at));
    }

    /** The notes every breakdown has (what the trace as a whole holds): printed once. */
    private static List<String> commonNotes(List<Breakdown> found) {
        List<String> common = found.isEmpty() ? new ArrayList<>() : new ArrayList<>(found.get(0).notes);
        for (Breakdown b : found) {
            common.retainAll(b.notes);
        }
        return common;
    }

    private static void row(StringBuilder s, Breakdown b, String what, long time, String detail) {
        double pct = b.wall() > 0 ? 100.0 * time / b.wall() : 0;
        s.append(String.format(Locale.ROOT, "  %-44s %10s %7.1f%%  %s", what, Text.millis(time), pct, detail).replaceAll("\\s+$", ""))
                .append('\n');
    }

    /** tree --why: a one-line breakdown per explained top-level call, and the notes all of them share. */
    static final class TreeAnnotations {
        /** Keyed by process id and instance id (unique among a process's calls). */
        private final Map<Long, String> lines = new HashMap<>();
        final List<String> notes = new ArrayList<>();

        String line(int processId, CallNode n) {
            return lines.get(key(processId, n.instanceId));
        }

        private static long key(int processId, int instanceId) {
            return (long) processId << 32 | (instanceId & 0xFFFFFFFFL);
        }
    }

    /**
     * tree --why without --slowest: the breakdowns of every finished top-level call (on {@code thread}
     * if given). Memory grows with the number of top-level calls, which is why --why is an option.
     */
    static TreeAnnotations annotateTopLevel(Path file, Integer thread) throws IOException {
        Scan scan;
        try (EtlReader reader = EtlReader.open(file)) {
            scan = scan(reader, new CallSelector(Integer.MAX_VALUE, null, thread), null);
        }
        return annotations(explain(file, scan, scan.selector.chosen(), false, null), scan);
    }

    /** The breakdowns of {@code calls}, by two more passes over {@code file}. */
    static TreeAnnotations annotate(Path file, List<ExplainedCall> calls) throws IOException {
        Scan scan;
        try (EtlReader reader = EtlReader.open(file)) {
            scan = scan(reader, null, null);
        }
        return annotations(explain(file, scan, calls, false, null), scan);
    }

    private static TreeAnnotations annotations(List<Breakdown> found, Scan scan) {
        TreeAnnotations a = new TreeAnnotations();
        for (Breakdown b : found) {
            a.lines.put(TreeAnnotations.key(b.call.processId, b.call.instanceId), oneLine(b, scan));
        }
        a.notes.addAll(commonNotes(found));
        return a;
    }

    /** "children 1.400 | self 18.412 | on CPU 5.000 | ..." in ms: one line for {@code tree --why}. */
    static String oneLine(Breakdown b, Scan scan) {
        StringBuilder s = new StringBuilder("why (ms): children ").append(Text.millis(b.children)).append(" | self ")
                .append(Text.millis(b.self()));
        if (b.states != null) {
            for (Map.Entry<String, Long> st : b.states.entrySet()) {
                s.append(" | ").append(st.getKey()).append(' ').append(Text.millis(st.getValue()));
            }
        }
        if (b.wakers != null && !b.wakers.isEmpty()) {
            Waker main = b.wakers.get(0);
            s.append(" | woken by ").append(wakerName(main, scan)).append(' ').append(Text.millis(main.waited));
            if (main.call != null) {
                s.append(" in ").append(Text.safe(scan.names.method(main.call.methodId)));
            }
        }
        if (b.diskIo != null && b.diskIo.count > 0) {
            s.append(" | disk I/O ").append(Text.millis(b.diskIo.time));
        }
        if (b.fileIo != null && b.fileIo.count() > 0) {
            s.append(" | file I/O ").append(Text.millis(b.fileIo.time));
        }
        if (b.hardFaults != null && b.hardFaults.count > 0) {
            s.append(" | hard faults ").append(Text.millis(b.hardFaults.time));
        }
        if (b.jvm != null) {
            for (Map.Entry<String, Usage> j : b.jvm.entrySet()) {
                s.append(" | ").append(j.getKey()).append(' ').append(Text.millis(j.getValue().time));
            }
        }
        return s.toString();
    }

    private static String json(Path f, String session, Options o, Scan scan, List<Breakdown> found, long sessionStart) {
        JsonWriter w = new JsonWriter().beginObject();
        w.name("file").value(f.toString()).name("session").value(session);
        w.name("selection").value(o.instance != null ? "instance " + o.instance : "slowest " + o.slowest);
        w.name("halfSeenCalls").value(scan.selector.halfSeen());
        w.name("missingSwitchIns").value(scan.contents.missingSwitchIns());
        w.name("calls").beginArray();
        for (Breakdown b : found) {
            ExplainedCall c = b.call;
            w.beginObject().name("method").value(scan.names.method(c.methodId)).name("methodId").value(c.methodId)
                    .name("instanceId").value(c.instanceId).name("processId").value(c.processId)
                    .name("threadId").value(c.threadId).name("threadName").value(scan.names.thread(c.processId, c.threadId))
                    .name("startMs").value((c.start - sessionStart) / 10_000.0, 4)
                    .name("wallMs").value(b.wall() / 10_000.0, 4).name("childrenMs").value(b.children / 10_000.0, 4)
                    .name("childCalls").value(b.childCalls).name("selfMs").value(b.self() / 10_000.0, 4);
            w.name("kernelThreadId");
            if (b.kernelThreadId > 0) {
                w.value(b.kernelThreadId);
            } else {
                w.value((String) null);
            }
            w.name("states");
            if (b.states == null) {
                w.value((String) null);
            } else {
                w.beginObject();
                for (Map.Entry<String, Long> st : b.states.entrySet()) {
                    w.name(st.getKey()).value(st.getValue() / 10_000.0, 4);
                }
                w.endObject();
            }
            wakersJson(w, b, scan, sessionStart);
            readyCpusJson(w, b.readyCpus, scan, b.call.end);
            w.name("samples");
            if (b.samples >= 0) {
                w.value(b.samples);
            } else {
                w.value((String) null);
            }
            usage(w.name("diskIo"), b.diskIo);
            fileIo(w.name("fileIo"), b.fileIo);
            usage(w.name("hardFaults"), b.hardFaults);
            w.name("jvm");
            if (b.jvm == null) {
                w.value((String) null);
            } else {
                w.beginObject();
                for (Map.Entry<String, Usage> j : b.jvm.entrySet()) {
                    usage(w.name(j.getKey()), j.getValue());
                }
                w.endObject();
            }
            w.name("notes").beginArray();
            for (String n : b.notes) {
                w.value(n);
            }
            w.endArray().endObject();
        }
        w.endArray().endObject();
        return w.toString();
    }

    /** {@code "wakers": [{threadId, processId, name, kind, wakeups, waitMs, atMs, call}]} or null. */
    private static void wakersJson(JsonWriter w, Breakdown b, Scan scan, long sessionStart) {
        w.name("wakers");
        if (b.wakers == null) {
            w.value((String) null);
            return;
        }
        w.beginArray();
        for (Waker k : b.wakers) {
            w.beginObject().name("threadId").value(k.threadId).name("processId").value(k.processId);
            w.name("name").value(scan.labels.name(k.threadId, k.processId, k.at));
            w.name("kind").value(k.isInterruptOrIdle() ? "interrupt or idle CPU" : k.threadId < 0 ? "not named" : "thread");
            w.name("wakeups").value(k.wakeups).name("waitMs").value(k.waited / 10_000.0, 4)
                    .name("atMs").value((k.at - sessionStart) / 10_000.0, 4);
            w.name("call");
            if (k.call == null) {
                w.value((String) null);
            } else {
                w.beginObject().name("method").value(scan.names.method(k.call.methodId)).name("methodId").value(k.call.methodId)
                        .name("instanceId").value(k.call.instanceId).name("threadId").value(k.call.threadId).endObject();
            }
            w.endObject();
        }
        w.endArray();
    }

    /**
     * {@code "cpusWhileReady": {readyMs, cpus, cpuMs, threads: [{threadId, processId, name, processName, ms,
     * shareOfReady, atMost}], moreThreads, moreThreadsMs, moreThreadsAtMost, idleMs, idleAtMost, unknownMs:
     * {beforeFirstSwitch, notRecorded}, processes: [{processId, name, threads, ms, shareOfReady, atMost}],
     * switchesOfTracedThreadsOnly}} or null; atMost: the time is an upper bound (a trace of the traced processes'
     * switches only, for another process's thread or idle).
     */
    private static void readyCpusJson(JsonWriter w, ReadyCpus r, Scan scan, long at) {
        w.name("cpusWhileReady");
        if (r == null) {
            w.value((String) null);
            return;
        }
        w.beginObject().name("readyMs").value(r.ready / 10_000.0, 4).name("cpus").beginArray();
        for (int c : r.cpus) {
            w.value(c);
        }
        w.endArray().name("cpuMs").value(r.cpuTime() / 10_000.0, 4).name("threads").beginArray();
        long restTime = 0;
        for (int i = 0; i < r.threads.size(); i++) {
            ReadyCpus.Holder h = r.threads.get(i);
            if (i >= HOLDERS_LISTED) {
                restTime += h.time;
                continue;
            }
            int pid = processOf(h.threadId, scan, at);
            w.beginObject().name("threadId").value(h.threadId).name("processId").value(pid)
                    .name("name").value(scan.labels.name(h.threadId, pid, at))
                    .name("processName").value(pid >= 0 ? scan.processNames.name(pid, at) : null)
                    .name("ms").value(h.time / 10_000.0, 4).name("shareOfReady").value((double) h.time / r.ready, 4)
                    .name("atMost").value(h.atMost).endObject();
        }
        int rest = Math.max(0, r.threads.size() - HOLDERS_LISTED);
        boolean restAtMost = false;
        for (int i = HOLDERS_LISTED; i < r.threads.size(); i++) {
            restAtMost |= r.threads.get(i).atMost;
        }
        w.endArray().name("moreThreads").value(rest).name("moreThreadsMs").value(restTime / 10_000.0, 4)
                .name("moreThreadsAtMost").value(restAtMost);
        w.name("idleMs").value(r.idle / 10_000.0, 4).name("idleAtMost").value(r.idleAtMost);
        w.name("unknownMs").beginObject().name("beforeFirstSwitch").value(r.beforeFirstSwitch / 10_000.0, 4)
                .name("notRecorded").value(r.notRecorded / 10_000.0, 4).endObject();
        w.name("processes").beginArray();
        List<ReadyCpus.ProcessHolder> processes = r.byProcess(tid -> processOf(tid, scan, at));
        for (ReadyCpus.ProcessHolder p : processes) {
            w.beginObject().name("processId").value(p.processId)
                    .name("name").value(p.processId >= 0 ? scan.processNames.name(p.processId, at) : null)
                    .name("threads").value(p.threads).name("ms").value(p.time / 10_000.0, 4)
                    .name("shareOfReady").value((double) p.time / r.ready, 4).name("atMost").value(p.atMost).endObject();
        }
        w.endArray().name("switchesOfTracedThreadsOnly").value(r.someThreadsOnly).endObject();
    }

    /** "2 reads 8192 bytes, 1 write 4096 bytes, 1 flush; most waited on /data/db.mv (3.100 ms, 3 operations)", or "none". */
    static String fileIoDetail(FileIoUsage u) {
        if (u.count() == 0) {
            return "none";
        }
        List<String> parts = new ArrayList<>();
        if (u.reads > 0) {
            parts.add(u.reads + (u.reads == 1 ? " read " : " reads ") + u.bytesRead + " bytes");
        }
        if (u.writes > 0) {
            parts.add(u.writes + (u.writes == 1 ? " write " : " writes ") + u.bytesWritten + " bytes");
        }
        if (u.flushes > 0) {
            parts.add(u.flushes + (u.flushes == 1 ? " flush" : " flushes"));
        }
        return String.join(", ", parts) + "; most waited on " + Text.safe(u.mostWaitedOn) + " (" + Text.millis(u.mostWaitedTime)
                + " ms, " + u.mostWaitedOperations + (u.mostWaitedOperations == 1 ? " operation)" : " operations)");
    }

    /** {@code {reads, writes, flushes, bytesRead, bytesWritten, ms, mostWaitedOn: {name, ms, operations}}} or null. */
    private static void fileIo(JsonWriter w, FileIoUsage u) {
        if (u == null) {
            w.value((String) null);
            return;
        }
        w.beginObject().name("reads").value(u.reads).name("writes").value(u.writes).name("flushes").value(u.flushes)
                .name("bytesRead").value(u.bytesRead).name("bytesWritten").value(u.bytesWritten)
                .name("ms").value(u.time / 10_000.0, 4).name("mostWaitedOn");
        if (u.mostWaitedOn == null) {
            w.value((String) null);
        } else {
            w.beginObject().name("name").value(u.mostWaitedOn).name("ms").value(u.mostWaitedTime / 10_000.0, 4)
                    .name("operations").value(u.mostWaitedOperations).endObject();
        }
        w.endObject();
    }

    private static void usage(JsonWriter w, Usage u) {
        if (u == null) {
            w.value((String) null);
            return;
        }
        w.beginObject().name("count").value(u.count).name("bytes").value(u.bytes).name("ms").value(u.time / 10_000.0, 4)
                .name("stopsEveryThread").value(u.stopsEveryThread).endObject();
    }
}
