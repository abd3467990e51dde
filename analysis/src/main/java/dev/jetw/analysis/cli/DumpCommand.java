package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.analysis.kernel.KernelClass;
import dev.jetw.analysis.kernel.KernelDecoder;
import dev.jetw.etl.SessionNotice;
import dev.jetw.analysis.kernel.KernelEvent;
import dev.jetw.analysis.kernel.StackKeys;
import dev.jetw.analysis.manifest.ManifestDecoder;
import dev.jetw.analysis.manifest.ManifestEvent;
import dev.jetw.etl.EventType;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code dump [--json] FILE...}: one line per event (every record but the logfile header), in reader
 * order (buffer SequenceNumber order). jetw's own events are decoded per JetwSchema, with method
 * names from the Method rundown and thread names from the Thread rundown (a first pass over the
 * file collects them, so names written late still resolve); kernel events are named by class and type
 * ("Thread/CSwitch") with their fields decoded ({@link KernelDecoder}); other payloads are shown in hex.
 */
final class DumpCommand {

    private DumpCommand() {
    }

    /** With --thread and --from/--to, only the events of that thread whose time is inside the window. */
    static int run(List<Path> files, CommandOptions o, PrintStream out, PrintStream err) {
        int status = EtlTool.OK;
        for (Path f : files) {
            status = EtlTool.worse(status, EtlFileRun.run(f, err, reader -> {
                Progress progress = Progress.forCommand(err, o, "dump " + f);
                TimeWindow window = o.window(reader.header().startTime());
                try {
                    TraceContext context = TraceContext.read(f, progress);
                    JetwNames names = context.names;
                    StackKeys keys = context.stackKeys;
                    for (EtlRecord r = reader.next(); r != null; r = reader.next()) {
                        progress.record(reader, 2, 2);
                        if (!r.isLogfileHeader() && o.threadMatches(r.threadId()) && window.contains(r.fileTime())) {
                            out.println(o.json ? json(reader, r, names, keys) : Text.safe(text(reader, r, names, keys)));
                        }
                    }
                    if (keys.resolved() + keys.unresolved() > 0) {
                        err.println("jetw etl dump: " + f + ": " + (keys.resolved() + keys.unresolved()) + " stacks by key, "
                                + keys.resolved() + " resolved, " + keys.unresolved() + " unresolved (no KeyDelete or"
                                + " KeyRundown of their key follows them in the file)");
                    }
                } finally {
                    progress.done();
                }
            }));
        }
        return status;
    }

    /**
     * Type name: jetw/classic class types by EVENT_TRACE_TYPE name, TraceLogging by event name, manifest events
     * by their manifest ({@code m}, the record's manifest view or null).
     */
    private static String typeName(EtlRecord r, ManifestEvent m) {
        if (r.eventName() != null) {
            return r.eventName();
        }
        String kernel = KernelDecoder.eventName(r);
        if (kernel != null) {
            return KernelClass.of(r).displayName() + "/" + kernel;
        }
        if (r.group() >= 0) {
            return "group 0x" + Integer.toHexString(r.group()) + " type 0x" + Integer.toHexString(r.type());
        }
        if (r.headerType() == 0x12 || r.headerType() == 0x13) {
            return m != null ? m.name() : "id " + r.eventId() + " v" + r.version() + " opcode " + r.type();
        }
        return EventType.name(r.type());
    }

    /** The manifest providers' events jetw can name (the .NET runtime's). */
    private static final ManifestDecoder MANIFESTS = ManifestDecoder.bundled();

    /** One record's line; what the trace gives (names, decoded strings) may hold controls: the caller escapes the line. */
    private static String text(EtlReader reader, EtlRecord r, JetwNames names, StackKeys keys) {
        StringBuilder s = new StringBuilder();
        s.append(Text.iso(r.fileTime())).append(" +")
                .append(Text.millis(reader.timestamps().hundredNanosSinceStart(r.rawTimestamp()))).append("ms");
        s.append(" pid ").append(r.processId()).append(" tid ").append(r.threadId());
        String thread = names.thread(r.processId(), r.threadId());
        if (thread != null) {
            s.append(" \"").append(thread).append('"');
        }
        s.append(' ').append(r.headerTypeName()).append(' ').append(r.guid() == null ? "-" : r.guid().toString());
        String cls = JetwEvent.className(r.guid());
        if (cls == null && r.providerName() != null) {
            cls = r.providerName();
        }
        if (cls == null) {
            cls = Text.knownProvider(r.guid());
        }
        if (cls == null) {
            cls = MANIFESTS.providerName(r);
        }
        KernelEvent k = KernelDecoder.decode(r);
        if (cls == null && k != null) {
            cls = k.kernelClass().displayName();
        }
        ManifestEvent m = k == null ? MANIFESTS.decode(r) : null;
        if (cls != null) {
            s.append(' ').append(cls);
        }
        s.append(' ').append(typeName(r, m)).append(" level ").append(r.level());
        if (r.isInstanceEvent()) {
            s.append(" inst ").append(r.instanceId()).append(" parent ").append(r.parentInstanceId());
        }
        JetwEvent e = JetwEvent.decode(r);
        SessionNotice notice = SessionNotice.decode(r);
        if (e != null) {
            s.append("  ").append(jetwText(r, e, names));
            if (e.truncated) {
                s.append("  (cut to the size limit)");
            }
        } else if (k != null && !k.fields().isEmpty()) {
            s.append("  ").append(k.toString().substring(k.fullName().length() + 1));
            if (StackKeys.isReference(k)) {
                long[] frames = keys.resolve(k);
                s.append(frames == null ? " stack=unresolved (no KeyDelete or KeyRundown of this key follows it)"
                        : " stack=" + KernelEvent.addressList(frames));
            }
        } else if (m != null && !m.fields().isEmpty()) {
            s.append("  ").append(m.fieldsText());
        } else if (notice != null) {
            s.append("  ").append(notice); // "problem: ...", "note: ...", "written by: ..."
        } else if (r.userData().length > 0) {
            s.append("  data ").append(Text.hex(r.userData()));
        }
        return s.toString();
    }

    private static String jetwText(EtlRecord r, JetwEvent e, JetwNames names) {
        switch (e.kind) {
            case CALL_START:
                return names.method(e.methodId);
            case CALL_END:
                return names.method(e.methodId) + (e.text.isEmpty() ? "" : " threw " + e.text);
            case CHECKPOINT:
                return "\"" + e.text + "\"" + (e.methodId != 0 ? " in " + names.method(e.methodId) : "");
            case METHOD:
                return "method " + e.methodId + " = " + e.methodDisplayName();
            case EXCLUSION:
                return "excluded " + names.method(e.methodId) + " (" + e.exclusionText() + ")";
            case RUNTIME:
                return e.layout.typeName + " " + e.runtimeFields();
            case DEQUEUE:
                return "task taken (" + CrossThreadLinks.kindName(e.handoffKind()) + "), queued "
                        + Text.millis(e.queueWaitNanos() / 100) + " ms, submitted by instance " + r.parentInstanceId();
            default:
                return "java thread " + e.javaThreadId + " = \"" + e.text + "\""
                        + (e.threadOsId > 0 ? ", os thread " + e.threadOsId : e.threadOsId == 0 ? ", no os thread (virtual)" : "");
        }
    }

    private static String json(EtlReader reader, EtlRecord r, JetwNames names, StackKeys keys) {
        JsonWriter w = new JsonWriter().beginObject();
        w.field("time", Text.iso(r.fileTime()));
        w.name("ms").value(reader.timestamps().hundredNanosSinceStart(r.rawTimestamp()) / 10_000.0, 4);
        w.field("fileTime", r.fileTime());
        w.field("rawTimestamp", r.rawTimestamp());
        w.field("pid", r.processId());
        w.field("tid", r.threadId());
        String thread = names.thread(r.processId(), r.threadId());
        if (thread != null) {
            w.field("thread", thread);
        }
        w.field("headerType", r.headerType());
        w.field("headerTypeName", r.headerTypeName());
        w.name("guid").value(r.guid() == null ? null : r.guid().toString());
        String provider = r.providerName() != null ? r.providerName() : Text.knownProvider(r.guid());
        if (provider == null) {
            provider = MANIFESTS.providerName(r);
        }
        KernelEvent k = KernelDecoder.decode(r);
        if (provider == null && k != null) {
            provider = k.kernelClass().displayName();
        }
        if (provider != null) {
            w.field("provider", provider);
        }
        ManifestEvent m = k == null ? MANIFESTS.decode(r) : null;
        w.field("type", r.type());
        w.field("typeName", typeName(r, m));
        w.field("level", r.level());
        w.field("version", r.version());
        if (r.group() >= 0) {
            w.field("group", r.group());
        }
        if (r.headerType() == 0x12 || r.headerType() == 0x13) {
            w.field("eventId", r.eventId());
            w.field("channel", r.channel());
            w.field("task", r.task());
            w.field("keyword", "0x" + Long.toHexString(r.keyword()));
            w.field("flags", r.flags());
            w.name("activityId").value(r.activityId().toString());
        }
        if (r.isInstanceEvent()) {
            w.field("instanceId", r.instanceId());
            w.field("parentInstanceId", r.parentInstanceId());
            w.name("parentGuid").value(r.parentGuid() == null ? null : r.parentGuid().toString());
        }
        w.field("offset", r.fileOffset());
        JetwEvent e = JetwEvent.decode(r);
        if (e != null) {
            w.name("jetw").beginObject();
            w.field("event", e.kind.name());
            w.field("truncated", e.truncated);
            switch (e.kind) {
                case CALL_START:
                case CALL_END:
                case CHECKPOINT:
                    w.field("methodId", e.methodId);
                    if (e.kind != JetwEvent.Kind.CHECKPOINT || e.methodId != 0) {
                        w.field("method", names.method(e.methodId));
                    }
                    if (e.kind == JetwEvent.Kind.CALL_END) {
                        w.field("exception", e.text);
                    } else if (e.kind == JetwEvent.Kind.CHECKPOINT) {
                        w.field("label", e.text);
                    }
                    break;
                case DEQUEUE:
                    w.field("handoff", CrossThreadLinks.kindName(e.handoffKind()));
                    w.field("queueWaitNs", e.queueWaitNanos());
                    w.field("submitterInstanceId", r.parentInstanceId());
                    break;
                case METHOD:
                    w.field("methodId", e.methodId);
                    w.field("className", e.className);
                    w.field("methodName", e.methodName);
                    w.field("descriptor", e.descriptor);
                    break;
                case EXCLUSION:
                    w.field("methodId", e.methodId);
                    w.field("method", names.method(e.methodId));
                    w.field("reason", e.text);
                    w.field("callsObserved", e.exclusionCounts[0]);
                    w.field("longCalls", e.exclusionCounts[1]);
                    w.field("shortNanos", e.exclusionCounts[2]);
                    break;
                case RUNTIME:
                    w.field("class", e.runtimeClass.name);
                    w.field("typeName", e.layout.typeName);
                    for (int i = 0; i < e.values.length; i++) {
                        String name = e.layout.fields.get(i).name;
                        if (e.values[i] instanceof String) {
                            w.field(name, (String) e.values[i]);
                        } else {
                            w.field(name, (Long) e.values[i]);
                        }
                    }
                    break;
                default:
                    w.field("javaThreadId", e.javaThreadId);
                    if (e.threadOsId >= 0) {
                        w.field("osThreadId", e.threadOsId); // Thread version 1; 0: none of its own (a virtual thread)
                    }
                    w.field("threadName", e.text);
            }
            w.endObject();
        } else {
            SessionNotice notice = SessionNotice.decode(r);
            if (k != null) {
                kernelJson(w, k, keys);
            } else if (m != null) {
                manifestJson(w, m);
            } else if (notice != null) {
                w.name("notice").beginObject();
                w.field("kind", notice.isProblem() ? "problem" : notice.kind() == SessionNotice.NOTE ? "note"
                        : notice.isWriter() ? "writer" : notice.isRing() ? "ring" : Integer.toString(notice.kind()));
                w.field("text", notice.text());
                w.endObject();
            }
            w.field("data", Text.hex(r.userData()));
        }
        return w.endObject().toString();
    }

    /** "kernel": class, its GUID, event name, version and the decoded fields by MOF property name. */
    private static void kernelJson(JsonWriter w, KernelEvent k, StackKeys keys) {
        w.name("kernel").beginObject();
        w.field("class", k.kernelClass().displayName());
        w.field("classGuid", k.kernelClass().guid().toString());
        w.field("event", k.eventName());
        w.field("version", k.version());
        w.name("fields").beginObject();
        for (Map.Entry<String, Object> f : k.fields().entrySet()) {
            Object v = f.getValue();
            if (v instanceof long[]) {
                w.name(f.getKey()).beginArray();
                for (long a : (long[]) v) {
                    w.value("0x" + Long.toHexString(a));
                }
                w.endArray();
            } else if (v instanceof String) {
                w.field(f.getKey(), (String) v);
            } else if (k.isAddress(f.getKey())) {
                w.field(f.getKey(), "0x" + Long.toHexString((Long) v));
            } else if (v == null) {
                w.name(f.getKey()).value(null);
            } else {
                w.field(f.getKey(), (Long) v);
            }
        }
        if (StackKeys.isReference(k)) {
            long[] frames = keys.resolve(k); // null: unresolved, said as such
            w.name("stack");
            if (frames == null) {
                w.value(null);
            } else {
                w.beginArray();
                for (long a : frames) {
                    w.value("0x" + Long.toHexString(a));
                }
                w.endArray();
            }
        }
        w.endObject();
        if (k.decodeNote() != null) {
            w.field("note", k.decodeNote());
        }
        w.endObject();
    }

    /** "manifest": provider, event name and symbol, and the template's fields by their manifest names. */
    private static void manifestJson(JsonWriter w, ManifestEvent m) {
        w.name("manifest").beginObject();
        w.field("provider", m.provider());
        w.field("event", m.name());
        w.name("symbol").value(m.symbol());
        w.name("fields").beginObject();
        for (Map.Entry<String, Object> f : m.fields().entrySet()) {
            w.name(f.getKey());
            manifestValue(w, f.getValue(), m.isHex(f.getKey()));
        }
        w.endObject();
        if (m.note() != null) {
            w.field("note", m.note());
        }
        w.endObject();
    }

    private static void manifestValue(JsonWriter w, Object v, boolean hex) {
        if (v instanceof java.util.List) {
            w.beginArray();
            for (Object o : (java.util.List<?>) v) {
                manifestValue(w, o, hex);
            }
            w.endArray();
        } else if (v instanceof Map) {
            w.beginObject();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                w.name(String.valueOf(e.getKey()));
                manifestValue(w, e.getValue(), false);
            }
            w.endObject();
        } else if (v instanceof Long) {
            if (hex) {
                w.value("0x" + Long.toHexString((Long) v));
            } else {
                w.value((long) (Long) v);
            }
        } else if (v instanceof Double) {
            w.value((Double) v, 6);
        } else {
            w.value(v == null ? null : v.toString());
        }
    }
}
