package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlHeaderTypes;
import dev.jetw.etl.EtlLogfileInfo;
import dev.jetw.etl.EtlProblem;
import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.analysis.kernel.KernelClass;
import dev.jetw.analysis.kernel.KernelDecoder;
import dev.jetw.analysis.kernel.KernelEvent;
import dev.jetw.analysis.kernel.MachineConfig;
import dev.jetw.analysis.kernel.StackKeys;
import dev.jetw.analysis.manifest.ManifestDecoder;
import dev.jetw.etl.EventType;
import dev.jetw.etl.SessionNotice;
import dev.jetw.etl.TraceLevel;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * {@code summary [--json] FILE...}: session, time span, buffers, events per provider / type / level,
 * events lost. Counts are over events: every record except the file's preamble, the logfile header and
 * (in a portable file) the writer notice after it, which no provider wrote and no session counted.
 */
final class SummaryCommand {

    /** Counts of one file. */
    private static final class Counts {
        long events;
        long firstEvent = Long.MAX_VALUE;
        long lastEvent = Long.MIN_VALUE;
        final Map<String, Long> providers = new TreeMap<>();
        final Map<String, String> providerNames = new HashMap<>();
        final Map<Integer, Long> types = new TreeMap<>();
        final Map<Integer, Long> levels = new TreeMap<>();
        final Map<Integer, Long> headerTypes = new TreeMap<>();
        final Map<String, Long> kernelEvents = new TreeMap<>();
        long callStarts;
        long callEnds;
        /**
         * ENDs whose START is not in the file, matched per thread (process and thread id) in file order: an END when no
         * call of its thread is open. Exact for a file written as one stream in time order (jetw's ring files); in a
         * file of per-CPU buffers a thread's events need not come in time order, so it is kept for a ring's file only
         * (its RING notice comes in buffer 0, before any call).
         */
        long startlessEnds;
        /** Per thread (process id &lt;&lt; 32 | thread id): the calls open so far. */
        final Map<Long, Long> openCalls = new java.util.HashMap<>();
        /** A RING notice in buffer 0: the file is a buffering ring's, which overwrites its oldest buffers. */
        String ring;
        final ExcludedMethods excluded = new ExcludedMethods();
        /** The session's own notices (SessionNotice): what it could not record, and caveats. */
        final List<String> sessionProblems = new ArrayList<>();
        final List<String> sessionNotes = new ArrayList<>();
        /** What wrote the file and on which host (a WRITER notice), null for a file ETW wrote. */
        String writer;
        /** The machine, from the EventTraceConfig records of a kernel trace. */
        final MachineConfig machine = new MachineConfig();
        /** Stacks compressed by key: definitions, and the references (key, time) counted at the end. */
        final StackKeys stackKeys = new StackKeys();
        long[] references = new long[0];
        int referenceCount;

        /** Keeps a session notice, whatever the filters: it is about the whole trace. */
        void notice(SessionNotice n) {
            if (n.isWriter()) {
                writer = n.text();
            } else if (n.isRing()) {
                ring = n.text();
            } else {
                (n.isProblem() ? sessionProblems : sessionNotes).add(n.text());
            }
        }

        void add(EtlRecord r, boolean preamble) {
            headerTypes.merge(r.headerType(), 1L, Long::sum);
            excluded.accept(r);
            if (preamble) {
                return;
            }
            events++;
            firstEvent = Math.min(firstEvent, r.fileTime());
            lastEvent = Math.max(lastEvent, r.fileTime());
            UUID g = r.guid();
            KernelClass kernel = KernelClass.of(r);
            if (kernel != null) {
                g = kernel.guid(); // kernel records carry no GUID: their MOF class's
                kernelEvents.merge(kernel.displayName() + "/" + KernelDecoder.eventName(r), 1L, Long::sum);
                if (kernel == KernelClass.CONFIG || kernel == KernelClass.STACK_WALK && r.type() != 32) {
                    kernelDetail(KernelDecoder.decode(r));
                }
            }
            JetwEvent jetw = JetwEvent.decode(r);
            if (jetw != null && jetw.kind == JetwEvent.Kind.CALL_START) {
                callStarts++;
                if (ring != null) {
                    openCalls.merge(threadKey(r), 1L, Long::sum);
                }
            } else if (jetw != null && jetw.kind == JetwEvent.Kind.CALL_END) {
                callEnds++;
                if (ring != null) { // only a ring's file reads the matching (overwrittenStarts): no map for others
                    Long open = openCalls.get(threadKey(r));
                    if (open == null || open == 0) {
                        startlessEnds++;
                    } else {
                        openCalls.put(threadKey(r), open - 1);
                    }
                }
            }
            String key = g == null ? "none" : g.toString();
            providers.merge(key, 1L, Long::sum);
            if (!providerNames.containsKey(key)) {
                String name = r.providerName() != null ? r.providerName() : Text.knownProvider(g);
                if (name == null) {
                    name = MANIFESTS.providerName(r); // a provider of a manifest jetw carries (.NET runtime)
                }
                if (name == null && kernel != null) {
                    name = kernel.displayName();
                } else if (name == null && g == null && r.group() >= 0) {
                    name = "kernel group 0x" + Integer.toHexString(r.group());
                }
                if (name != null) {
                    providerNames.put(key, name);
                }
            }
            types.merge(r.type(), 1L, Long::sum);
            levels.merge(r.level(), 1L, Long::sum);
        }

        private void kernelDetail(KernelEvent k) {
            machine.accept(k);
            stackKeys.accept(k);
            if (StackKeys.isReference(k)) {
                if (2 * referenceCount == references.length) {
                    references = java.util.Arrays.copyOf(references, Math.max(64, 2 * references.length));
                }
                references[2 * referenceCount] = k.number("stackKey");
                references[2 * referenceCount + 1] = k.rawTimestamp();
                referenceCount++;
            }
        }

        /** Resolves the references once every definition is in (they follow their references in the file). */
        void finish() {
            for (int i = 0; i < referenceCount; i++) {
                stackKeys.count(references[2 * i], references[2 * i + 1]);
            }
            references = null;
        }
    }

    private static final ManifestDecoder MANIFESTS = ManifestDecoder.bundled();

    private SummaryCommand() {
    }

    /**
     * With --thread or --from/--to only the events of that thread inside the window are counted (the
     * logfile header is always read); the START/END balance is not checked then, because a window
     * cuts calls in two.
     */
    static int run(List<Path> files, CommandOptions o, PrintStream out, PrintStream err) {
        int status = EtlTool.OK;
        for (Path f : files) {
            status = EtlTool.worse(status, EtlFileRun.runReporting(f, err, reader -> {
                Counts c = new Counts();
                TimeWindow window = o.window(reader.header().startTime());
                boolean filtered = o.thread != null || !window.isAll();
                Progress progress = Progress.forCommand(err, o, "summary " + f);
                for (EtlRecord r = reader.next(); r != null; r = reader.next()) {
                    progress.record(reader, 1, 1);
                    SessionNotice notice = SessionNotice.decode(r);
                    if (notice != null) {
                        c.notice(notice);
                    }
                    boolean preamble = r.isLogfileHeader() || notice != null && (notice.isWriter() || notice.isRing());
                    if (preamble || (o.threadMatches(r.threadId()) && window.contains(r.fileTime()))) {
                        c.add(r, preamble);
                    }
                }
                progress.done();
                c.finish();
                String gap = sequenceGap(reader);
                if (gap != null) {
                    c.sessionNotes.add(gap);
                }
                long overwrittenStarts = overwrittenStarts(reader, c);
                if (overwrittenStarts > 0 && !filtered && c.ring != null) {
                    c.sessionNotes.add(overwrittenStarts + (overwrittenStarts == 1 ? " END has" : " ENDs have") + " no START in"
                            + " this file: calls begun in the buffers the buffering ring overwrote by design");
                }
                List<String> lost = lossProblems(reader.header(), c, filtered, overwrittenStarts);
                out.println(o.json ? json(reader, c, lost) : text(reader, c, lost, o.describeFilters()));
                return lost;
            }));
        }
        return status;
    }

    /**
     * The note on data buffers that the file's SequenceNumbers say are missing (a wrapped circular file's numbering
     * goes on past the buffers it overwrote; an earlier file of newfile mode holds its own), or null when the data
     * buffers are numbered 1..n. Counts every number missing, before the oldest and between buffers.
     */
    static String sequenceGap(EtlReader reader) {
        List<dev.jetw.etl.EtlBufferInfo> buffers = reader.buffers();
        if (buffers.size() < 2) {
            return null;
        }
        long oldest = buffers.get(1).sequenceNumber();
        long newest = oldest;
        for (dev.jetw.etl.EtlBufferInfo b : buffers.subList(1, buffers.size())) {
            newest = Math.max(newest, b.sequenceNumber());
        }
        long before = buffersBeforeOldest(reader);
        long between = Math.max(0, newest - oldest + 1 - (buffers.size() - 1));
        if (before + between == 0) {
            return null;
        }
        StringBuilder s = new StringBuilder();
        if (before > 0) {
            s.append("the file's oldest buffer is number ").append(before + 1).append(": ")
                    .append(before == 1 ? "the buffer before it is" : "the " + before + " buffers before it are");
        }
        if (between > 0) {
            s.append(before > 0 ? "; " : "").append(between).append(between == 1 ? " buffer number" : " buffer numbers")
                    .append(" between its oldest and newest ").append(between == 1 ? "is" : "are");
        }
        return s.append(" not in this file (a circular file overwrote them, or they are in an earlier file of newfile mode)")
                .toString();
    }

    /**
     * The ENDs that are no loss because their calls began in what the file overwrote by design:
     * <ul>
     * <li>a jetw ring's file or dump (its RING notice in buffer 0; ETW, and so jetw, clear the BUFFERING bit in the
     *     header) that declares no loss: every END without START (matched per thread, nested calls too: a call running
     *     when the file begins ends after the calls it made in the file). Such a file is one stream in time order, and
     *     what is lost while tracing is counted in the header; with a loss counted, no END is excused;</li>
     * <li>a wrapped circular file (its oldest buffer numbered past 1): the ENDs beyond the STARTs, as before. Windows
     *     writes per-CPU buffers whose events need not come in time order per thread, so no per-thread matching there.</li>
     * </ul>
     */
    static long overwrittenStarts(EtlReader reader, Counts c) {
        EtlLogfileInfo h = reader.header();
        if (c.ring != null) {
            return h.eventsLost() == 0 && h.buffersLost() == 0 ? c.startlessEnds : 0;
        }
        return buffersBeforeOldest(reader) > 0 && c.callEnds > c.callStarts ? c.callEnds - c.callStarts : 0;
    }

    /** Data buffers that the file's SequenceNumbers say came before its oldest one (a wrapped circular file's). */
    static long buffersBeforeOldest(EtlReader reader) {
        List<dev.jetw.etl.EtlBufferInfo> buffers = reader.buffers();
        return buffers.size() > 1 ? Math.max(0, buffers.get(1).sequenceNumber() - 1) : 0;
    }

    private static long threadKey(EtlRecord r) {
        return ((long) r.processId() << 32) | (r.threadId() & 0xFFFFFFFFL);
    }

    /**
     * Loss the file itself declares (the logfile header's EventsLost / BuffersLost) and jetw calls
     * whose START and END counts differ (END lost, or calls still running when the session stopped). The
     * {@code overwrittenStarts} ENDs whose calls began in what the file overwrote by design ({@link #overwrittenStarts})
     * are no loss (a note says so).
     */
    static List<String> lossProblems(EtlLogfileInfo h, Counts c, boolean filtered, long overwrittenStarts) {
        List<String> out = new ArrayList<>();
        for (String p : c.sessionProblems) {
            out.add("session: " + p);
        }
        if (h.eventsLost() != 0 || h.buffersLost() != 0) {
            out.add("events lost: the logfile header says " + Integer.toUnsignedString(h.eventsLost())
                    + " events and " + Integer.toUnsignedString(h.buffersLost())
                    + " buffers were lost while tracing; they are in no buffer of this file");
        }
        long ends = c.callEnds - overwrittenStarts;
        if (c.callStarts != ends && !filtered) {
            out.add("unbalanced jetw calls: " + c.callStarts + " START and " + c.callEnds + " END events ("
                    + (overwrittenStarts > 0 ? overwrittenStarts + " of the ENDs begun before the file; " : "")
                    + (c.callStarts > ends ? (c.callStarts - ends) + " calls without END: still running at"
                    + " stop, or their END was lost" : (ends - c.callStarts) + " ENDs without START: START lost")
                    + ")");
        }
        return out;
    }

    private static String json(EtlReader reader, Counts c, List<String> lost) {
        EtlLogfileInfo h = reader.header();
        JsonWriter w = new JsonWriter().beginObject();
        w.field("file", reader.file().toString());
        w.field("sessionName", h.loggerName());
        w.field("logFileName", h.logFileName());
        w.field("startTime", Text.iso(h.startTime()));
        w.name("endTime").value(h.endTime() != 0 ? Text.iso(h.endTime()) : null);
        w.field("startFileTime", h.startTime());
        w.field("endFileTime", h.endTime());
        w.name("firstEventTime").value(c.events > 0 ? Text.iso(c.firstEvent) : null);
        w.name("lastEventTime").value(c.events > 0 ? Text.iso(c.lastEvent) : null);
        w.field("events", c.events);
        w.field("eventsLost", h.eventsLost());
        w.field("buffersLost", h.buffersLost());
        w.field("buffers", reader.buffers().size());
        w.field("compressedBuffers", reader.compressedBuffers());
        w.field("buffersWritten", h.buffersWritten());
        w.field("bufferSize", h.bufferSize());
        w.field("pointerSize", h.pointerSize());
        w.field("numberOfProcessors", h.numberOfProcessors());
        w.field("clockType", h.clockType());
        w.field("perfFreq", h.perfFreq());
        w.field("logFileMode", h.logFileMode());
        // The header's version: the host's Windows for a file ETW wrote; the Windows layout a writer that
        // names itself (writtenBy) follows.
        w.field("headerVersion", h.majorVersion() + "." + h.minorVersion() + "." + h.providerVersion());
        w.name("writtenBy").value(c.writer);
        w.name("providers").beginObject();
        for (Map.Entry<String, Long> e : c.providers.entrySet()) {
            w.field(e.getKey(), e.getValue());
        }
        w.endObject();
        w.name("providerNames").beginObject();
        for (Map.Entry<String, String> e : new TreeMap<>(c.providerNames).entrySet()) {
            w.field(e.getKey(), e.getValue());
        }
        w.endObject();
        w.name("kernelEvents").beginObject();
        for (Map.Entry<String, Long> e : c.kernelEvents.entrySet()) {
            w.field(e.getKey(), e.getValue());
        }
        w.endObject();
        if (c.machine.hasCpu()) {
            w.name("machine").beginObject();
            w.field("computerName", c.machine.computerName());
            w.field("processors", c.machine.processors());
            w.field("mhz", c.machine.mhz());
            w.field("memoryMb", c.machine.memoryMb());
            w.name("disks").beginArray();
            for (String d : c.machine.disks()) {
                w.value(d);
            }
            w.endArray();
            w.name("volumes").beginArray();
            for (String v : c.machine.volumes()) {
                w.value(v);
            }
            w.endArray();
            w.endObject();
        }
        if (c.stackKeys.resolved() + c.stackKeys.unresolved() > 0) {
            w.name("stacksByKey").beginObject();
            w.field("references", c.stackKeys.resolved() + c.stackKeys.unresolved());
            w.field("resolved", c.stackKeys.resolved());
            w.field("unresolved", c.stackKeys.unresolved());
            w.endObject();
        }
        w.field("callStarts", c.callStarts);
        w.field("callEnds", c.callEnds);
        w.name("types").beginObject();
        for (Map.Entry<Integer, Long> e : c.types.entrySet()) {
            w.field(e.getKey().toString(), e.getValue());
        }
        w.endObject();
        w.name("levels").beginObject();
        for (Map.Entry<Integer, Long> e : c.levels.entrySet()) {
            w.field(e.getKey().toString(), e.getValue());
        }
        w.endObject();
        w.name("headerTypes").beginObject();
        for (Map.Entry<Integer, Long> e : c.headerTypes.entrySet()) {
            w.field(String.format("0x%02x", e.getKey()), e.getValue());
        }
        w.endObject();
        c.excluded.json(w);
        w.field("unknownRecords", reader.unknownRecords());
        w.field("corruptBuffers", reader.corruptBuffers());
        w.field("truncated", reader.isTruncated());
        w.name("problems").beginArray();
        for (EtlProblem p : reader.problems()) {
            w.value(p.message());
        }
        for (String p : lost) {
            w.value(p);
        }
        w.endArray();
        w.name("notes").beginArray();
        for (String n : c.sessionNotes) {
            w.value(n);
        }
        w.endArray();
        return w.endObject().toString();
    }

    private static String text(EtlReader reader, Counts c, List<String> lost, String filters) {
        EtlLogfileInfo h = reader.header();
        StringBuilder s = new StringBuilder();
        line(s, "file", reader.file().toString());
        line(s, "session", Text.safe(h.loggerName()));
        line(s, "log file", Text.safe(h.logFileName()));
        line(s, "start", Text.iso(h.startTime()));
        if (h.endTime() != 0) {
            line(s, "end", Text.iso(h.endTime()) + "  (" + Text.millis(h.endTime() - h.startTime()) + " ms)");
        } else {
            line(s, "end", "not set (the session was not stopped cleanly)");
        }
        if (c.events > 0) {
            line(s, "events span", Text.iso(c.firstEvent) + " .. " + Text.iso(c.lastEvent)
                    + "  (" + Text.millis(c.lastEvent - c.firstEvent) + " ms)");
        }
        if (c.writer != null) {
            line(s, "written by", c.writer);
        }
        line(s, "clock", clock(h) + "; " + h.numberOfProcessors() + " CPUs; pointer size " + h.pointerSize()
                + "; " + headerVersion(h, c.writer));
        if (c.machine.hasCpu()) {
            line(s, "machine", (c.machine.computerName() == null || c.machine.computerName().isEmpty() ? ""
                    : c.machine.computerName() + ": ") + c.machine.processors() + " CPUs at " + c.machine.mhz() + " MHz, "
                    + c.machine.memoryMb() + " MB memory (EventTraceConfig)");
        }
        if (!c.machine.disks().isEmpty() || !c.machine.volumes().isEmpty()) {
            List<String> storage = new ArrayList<>(c.machine.disks());
            storage.addAll(c.machine.volumes());
            line(s, "disks", String.join("; ", storage));
        }
        line(s, "buffers", reader.buffers().size() + " x " + h.bufferSize() + " bytes (header says "
                + h.buffersWritten() + " written" + (reader.compressedBuffers() > 0 ? "; " + reader.compressedBuffers()
                + " compressed, the size is their capacity" : "") + ")");
        line(s, "events", c.events + " (not counting the logfile header" + (c.writer != null ? " and the writer notice" : "")
                + (c.ring != null ? " and the ring notice" : "")
                + filters + ")");
        // The header's EventsLost: what is not in the file, dropped before a buffer plus lost in unwritten buffers.
        line(s, "events lost", h.eventsLost() + " (buffers lost " + h.buffersLost() + "; dropped + lost, not in the file)");
        StringBuilder ht = new StringBuilder();
        for (Map.Entry<Integer, Long> e : c.headerTypes.entrySet()) {
            ht.append(ht.length() == 0 ? "" : ", ").append(EtlHeaderTypes.name(e.getKey())).append(' ').append(e.getValue());
        }
        line(s, "records", ht + " (all records)");
        if (reader.unknownRecords() > 0) {
            line(s, "unknown records", Integer.toString(reader.unknownRecords()));
        }
        s.append("providers:\n");
        for (Map.Entry<String, Long> e : c.providers.entrySet()) {
            String name = c.providerNames.get(e.getKey());
            s.append(String.format(Locale.ROOT, "  %-36s  %-40s %8d\n", e.getKey(), name == null ? "" : name, e.getValue()));
        }
        if (!c.kernelEvents.isEmpty()) {
            s.append("kernel events:\n");
            for (Map.Entry<String, Long> e : c.kernelEvents.entrySet()) {
                s.append(String.format(Locale.ROOT, "  %-40s %8d\n", e.getKey(), e.getValue()));
            }
        }
        if (c.stackKeys.resolved() + c.stackKeys.unresolved() > 0) {
            s.append("stacks by key: ").append(c.stackKeys.resolved() + c.stackKeys.unresolved())
                    .append(" references (StackKeyKernel/StackKeyUser), ").append(c.stackKeys.resolved()).append(" resolved, ")
                    .append(c.stackKeys.unresolved()).append(" unresolved (no KeyDelete or KeyRundown of their key follows them)\n");
        }
        s.append("types:\n");
        for (Map.Entry<Integer, Long> e : c.types.entrySet()) {
            s.append(String.format(Locale.ROOT, "  %3d %-12s %8d\n", e.getKey(), EventType.name(e.getKey()), e.getValue()));
        }
        s.append("levels:\n");
        for (Map.Entry<Integer, Long> e : c.levels.entrySet()) {
            s.append(String.format(Locale.ROOT, "  %3d %-12s %8d\n", e.getKey(), TraceLevel.name(e.getKey()), e.getValue()));
        }
        c.excluded.text(s);
        List<String> problems = new ArrayList<>();
        for (EtlProblem p : reader.problems()) {
            problems.add(p.message());
        }
        problems.addAll(lost);
        if (!c.sessionNotes.isEmpty()) {
            s.append("session notes:\n");
            for (String n : c.sessionNotes) {
                s.append("  ").append(n).append('\n');
            }
        }
        s.append("problems:").append(problems.isEmpty() ? " none\n" : "\n");
        for (String p : problems) {
            s.append("  ").append(p).append('\n');
        }
        return s.toString().trim();
    }

    /**
     * The header's version fields: the host's OS for a file ETW wrote; for a file whose writer names itself
     * (the portable backend, on any host) the Windows layout the file follows (docs/portable-backend.md).
     */
    static String headerVersion(EtlLogfileInfo h, String writer) {
        String version = h.majorVersion() + "." + h.minorVersion() + " build " + h.providerVersion();
        return writer == null ? "OS " + version : "header declares the Windows " + version + " layout";
    }

    private static String clock(EtlLogfileInfo h) {
        switch (h.clockType()) {
            case 1: return "QPC at " + h.perfFreq() + " Hz";
            case 2: return "system time";
            case 3: return "CPU cycles at " + h.cpuSpeedInMHz() + " MHz";
            default: return "clock type " + h.clockType();
        }
    }

    private static void line(StringBuilder s, String key, String value) {
        s.append(String.format(Locale.ROOT, "%-12s %s\n", key + ":", value));
    }
}
