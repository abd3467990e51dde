package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.JvmEventSchema;
import dev.jetw.analysis.why.ThreadIds;
import dev.jetw.etl.EventType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The JVM runtime events of a file (JvmEventSchema) as intervals: a START and the END of the same
 * class and instance id (records are not in time order: they carry the JVM's own times) make one
 * span; INFO events and thread starts/ends are instants (start == end). Times are FILETIMEs.
 * A span belongs to a thread of the call trees when its subject is that thread, decided by
 * {@link ThreadIds#isSubject} from the file's Thread rundown (Windows headers carry OS ids, the portable
 * backend's Java ids; matching either id blindly would give a thread another's events); spans of
 * {@link JvmEventSchema.EventClass#jvmWide} classes belong to every thread of their process.
 */
final class RuntimeSpans {

    static final class Span {
        final int processId;
        final JvmEventSchema.EventClass cls;
        /** The START's (or instant's) event: its fields describe the span. */
        final JetwEvent first;
        /** The END's event, or null for an instant or a START without END. */
        JetwEvent last;
        final long start;
        long end;
        private final ThreadIds ids;

        Span(int processId, JetwEvent first, long start, ThreadIds ids) {
            this.ids = ids;
            this.processId = processId;
            this.cls = first.runtimeClass;
            this.first = first;
            this.start = start;
            this.end = start;
        }

        boolean instant() {
            return last == null;
        }

        /** True when it concerns thread {@code tid} of {@code pid}: its subject, or any thread for a JVM-wide span. */
        boolean concerns(int pid, int tid) {
            return pid == processId
                    && (cls.jvmWide || (tid != 0 && ids.isSubject(pid, tid, first.osThreadId(), first.javaThreadId)));
        }

        /** The header thread id its subject goes by in this file ({@link ThreadIds#headerIdOf}): a Java id in portable files. */
        long subjectHeaderId() {
            return ids.headerIdOf(first.osThreadId(), first.javaThreadId);
        }

        /** "JvmGc Start GcId=3 Name=..." for the tools: the class, the first event's type and its fields after the subject. */
        String label() {
            StringBuilder s = new StringBuilder(cls.name).append(' ').append(first.layout.typeName);
            for (Map.Entry<String, Object> f : fields().entrySet()) {
                Object v = f.getValue();
                s.append(' ').append(f.getKey()).append('=').append(v instanceof String ? "\"" + v + "\"" : v);
            }
            return s.toString();
        }

        /** The first event's fields after the subject (OsThreadId, JavaThreadId), by name, in payload order. */
        Map<String, Object> fields() {
            Map<String, Object> f = new java.util.LinkedHashMap<>();
            for (int i = 2; i < first.values.length; i++) {
                f.put(first.layout.fields.get(i).name, first.values[i]);
            }
            return f;
        }
    }

    private final List<Span> spans = new ArrayList<>();
    private final Map<Long, Span> open = new HashMap<>();
    /** ENDs read before their START (records carry the JVM's times, so file order is not time order). */
    private final Map<Long, Object[]> pendingEnds = new HashMap<>();
    private List<Span> sorted;
    /** How the file numbers threads, learnt from the same records (thread rundown, runtime subjects). */
    private final ThreadIds ids = new ThreadIds();

    /** How the file numbers its threads, from what {@link #accept} has seen. */
    ThreadIds ids() {
        return ids;
    }

    void accept(EtlRecord r, JetwEvent e) {
        if (e != null && e.kind == JetwEvent.Kind.THREAD && r.type() == EventType.DC_START) {
            ids.threadStart(r.processId(), r.threadId(), e.javaThreadId, e.threadOsId);
        }
        if (e == null || e.kind != JetwEvent.Kind.RUNTIME) {
            return;
        }
        ids.subject(r.processId(), e.osThreadId(), e.javaThreadId);
        if (e.runtimeClass.paired && r.type() == EventType.START) {
            Span s = new Span(r.processId(), e, r.fileTime(), ids);
            spans.add(s);
            sorted = null;
            Object[] end = pendingEnds.remove(key(r, e));
            if (end != null) {
                s.last = (JetwEvent) end[0];
                s.end = (Long) end[1];
            } else {
                open.put(key(r, e), s);
            }
        } else if (e.runtimeClass.paired && r.type() == EventType.END) {
            Span s = open.remove(key(r, e));
            if (s != null) {
                s.last = e;
                s.end = r.fileTime();
            } else {
                pendingEnds.put(key(r, e), new Object[] {e, r.fileTime()}); // its START comes later in the file
            }
        } else {
            spans.add(new Span(r.processId(), e, r.fileTime(), ids));
            sorted = null;
        }
    }

    private static long key(EtlRecord r, JetwEvent e) {
        return ((long) r.processId() << 40) ^ ((long) e.runtimeClass.index << 32) ^ (r.instanceId() & 0xFFFFFFFFL);
    }

    /** Every span, by start time. */
    List<Span> all() {
        if (sorted == null) {
            List<Span> s = new ArrayList<>(spans);
            s.sort(Comparator.comparingLong(span -> span.start));
            sorted = Collections.unmodifiableList(s);
        }
        return sorted;
    }

    /** The spans concerning {@code pid}/{@code tid} that overlap [from, to], by start time. */
    List<Span> overlapping(int pid, int tid, long from, long to) {
        List<Span> out = new ArrayList<>();
        for (Span s : all()) {
            if (s.concerns(pid, tid) && s.start <= to && s.end >= from) {
                out.add(s);
            }
        }
        return out;
    }
}
