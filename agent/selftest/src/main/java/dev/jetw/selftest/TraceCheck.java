package dev.jetw.selftest;

import dev.jetw.etl.EtlProblem;
import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;
import dev.jetw.etl.TraceLevel;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads a trace back with jetw's own reader and compares its MethodCall records with what the
 * workload wrote: exact count, and per writing thread the exact sequence of type, level, instance
 * and parent ids, payload, process id and thread id, in time-stamp order (ETW writes per-CPU buffers,
 * so file order is not time order; a thread's events sorted by time stamp must be its writing order).
 * Every record must also lie in the wall-clock window of the writes.
 */
final class TraceCheck {

    /** How many individual mismatches are listed before the rest is only counted. */
    static final int MAX_LISTED = 20;
    /** Slack on the wall-clock window: ETW's clocks and Java's may differ by a tick or a clock adjustment. */
    static final long WINDOW_SLACK_MILLIS = 2_000;

    final List<String> problems = new ArrayList<>();
    final List<String> facts = new ArrayList<>();
    private int unlisted;

    private TraceCheck() {
    }

    /**
     * @param windowStartMillis wall clock before the first write
     * @param windowEndMillis   wall clock after the session stopped
     */
    static TraceCheck compare(Path etl, List<WrittenThread> written, int processId, long windowStartMillis,
                              long windowEndMillis) throws IOException {
        TraceCheck check = new TraceCheck();
        List<EtlRecord> records = check.read(etl);
        check.compareRecords(records, written, processId, windowStartMillis, windowEndMillis);
        if (check.unlisted > 0) {
            check.problems.add("... and " + check.unlisted + " more mismatches");
        }
        return check;
    }

    /** The MethodCall records of the file; reader problems (truncation, corrupt buffers) are problems here. */
    private List<EtlRecord> read(Path etl) throws IOException {
        List<EtlRecord> calls = new ArrayList<>();
        int all = 0;
        try (EtlReader reader = EtlReader.open(etl)) {
            for (EtlRecord r = reader.next(); r != null; r = reader.next()) {
                all++;
                if (JetwSchema.METHOD_CALL_CLASS.equals(r.guid())) {
                    calls.add(r);
                }
            }
            for (EtlProblem p : reader.problems()) {
                problem("the reader reports: " + p);
            }
            // Records of a header type the reader does not decode (possible among kernel records) are
            // reported, not judged: they cannot be jetw's, which the reader decodes.
            facts.add(String.format("file %s: %d bytes, %d buffers of %d bytes, %d records decoded, %d of an undecoded type"
                            + " skipped, %d MethodCall records, events lost (header) %d", etl, reader.fileSize(), reader.buffers().size(),
                    reader.header().bufferSize(), all, reader.unknownRecords(), calls.size(), reader.header().eventsLost()));
        }
        return calls;
    }

    private void compareRecords(List<EtlRecord> records, List<WrittenThread> written, int processId,
                                long windowStartMillis, long windowEndMillis) {
        int expectedTotal = 0;
        Map<Integer, WrittenThread> byThread = new LinkedHashMap<>();
        for (WrittenThread w : written) {
            expectedTotal += w.events.size();
            if (byThread.put(w.threadId, w) != null) {
                problem("two writer threads report the same thread id " + w.threadId);
            }
        }
        if (records.size() != expectedTotal) {
            problem("the file holds " + records.size() + " MethodCall events, " + expectedTotal + " were written");
        }
        counts(records);
        Map<Integer, List<EtlRecord>> streams = new TreeMap<>();
        for (EtlRecord r : records) {
            streams.computeIfAbsent(r.threadId(), k -> new ArrayList<>()).add(r);
            if (r.processId() != processId) {
                problem("record at offset " + r.fileOffset() + " has process id " + r.processId() + ", expected " + processId);
            }
            long millis = r.instant().toEpochMilli();
            if (millis < windowStartMillis - WINDOW_SLACK_MILLIS || millis > windowEndMillis + WINDOW_SLACK_MILLIS) {
                problem("record at offset " + r.fileOffset() + " has time " + r.instant() + ", outside the writes ("
                        + java.time.Instant.ofEpochMilli(windowStartMillis) + " .. " + java.time.Instant.ofEpochMilli(windowEndMillis) + ")");
            }
        }
        for (Integer tid : streams.keySet()) {
            if (!byThread.containsKey(tid)) {
                problem(streams.get(tid).size() + " records carry thread id " + tid + ", which no writer thread has");
            }
        }
        Set<Integer> instanceIds = new HashSet<>();
        for (WrittenThread w : written) {
            List<EtlRecord> stream = streams.containsKey(w.threadId) ? streams.get(w.threadId) : new ArrayList<EtlRecord>();
            stream.sort(timeOrder(w));
            compareStream(w, stream);
            for (ExpectedEvent e : w.events) {
                if (e.type == EventType.START && !instanceIds.add(e.instanceId)) {
                    problem("instance id " + e.instanceId + " was handed out twice (CreateTraceInstanceId must not repeat)");
                }
            }
        }
        facts.add(written.size() + " writer threads, thread ids " + byThread.keySet() + ", process id " + processId);
    }

    /**
     * Time-stamp order. Two events of one thread may share a time stamp (QPC ticks are 100 ns) and, if
     * the thread changed CPU between them, sit in different buffers in either order: equal time stamps
     * are ordered by the writing order of their (type, instance id), unique per thread.
     */
    private static Comparator<EtlRecord> timeOrder(WrittenThread w) {
        Map<Long, Integer> written = new HashMap<>();
        for (int i = 0; i < w.events.size(); i++) {
            written.putIfAbsent(key(w.events.get(i).type, w.events.get(i).instanceId), i);
        }
        return Comparator.comparingLong(EtlRecord::rawTimestamp)
                .thenComparingInt(r -> written.getOrDefault(key(r.type(), r.instanceId()), Integer.MAX_VALUE));
    }

    private static long key(int type, int instanceId) {
        return ((long) type << 32) | (instanceId & 0xFFFFFFFFL);
    }

    private void compareStream(WrittenThread w, List<EtlRecord> stream) {
        if (stream.size() != w.events.size()) {
            problem("thread " + w.threadId + " (" + w.name + "): " + stream.size() + " records in the file, "
                    + w.events.size() + " written");
        }
        int n = Math.min(stream.size(), w.events.size());
        for (int i = 0; i < n; i++) {
            String diff = difference(w.events.get(i), stream.get(i));
            if (diff != null) {
                problem("thread " + w.threadId + " event " + i + " (in time-stamp order): " + diff);
            }
        }
    }

    /** null when the record is the event, else what differs. */
    static String difference(ExpectedEvent e, EtlRecord r) {
        List<String> d = new ArrayList<>();
        if (!r.isInstanceEvent()) {
            d.add("header type " + r.headerTypeName() + " is not an instance record");
        }
        if (r.type() != e.type) {
            d.add("type " + EventType.name(r.type()) + " != " + EventType.name(e.type));
        }
        if (r.level() != e.level) {
            d.add("level " + r.level() + " != " + e.level);
        }
        if (r.version() != 0) {
            d.add("version " + r.version() + " != 0");
        }
        if (r.instanceId() != e.instanceId) {
            d.add("instance id " + r.instanceId() + " != " + e.instanceId);
        }
        if (r.parentInstanceId() != e.parentInstanceId) {
            d.add("parent instance id " + r.parentInstanceId() + " != " + e.parentInstanceId);
        }
        if (e.hasParent() && !JetwSchema.METHOD_CALL_CLASS.equals(r.parentGuid())) {
            d.add("parent class " + r.parentGuid() + " != " + JetwSchema.METHOD_CALL_CLASS);
        }
        if (!Arrays.equals(r.userData(), e.payload)) {
            d.add("payload " + Arrays.toString(r.userData()) + " != " + Arrays.toString(e.payload));
        }
        return d.isEmpty() ? null : String.join(", ", d) + " (record at offset " + r.fileOffset() + ")";
    }

    private void counts(List<EtlRecord> records) {
        Map<String, Integer> types = new TreeMap<>();
        Map<String, Integer> levels = new TreeMap<>();
        for (EtlRecord r : records) {
            types.merge(EventType.name(r.type()), 1, Integer::sum);
            levels.merge(TraceLevel.name(r.level()), 1, Integer::sum);
        }
        facts.add("MethodCall events by type " + types + ", by level " + levels);
    }

    private void problem(String text) {
        if (problems.size() < MAX_LISTED) {
            problems.add(text);
        } else {
            unlisted++;
        }
    }
}
