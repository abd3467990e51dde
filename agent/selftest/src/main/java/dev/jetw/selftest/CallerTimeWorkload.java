package dev.jetw.selftest;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EventScratch;
import dev.jetw.etl.EventType;
import dev.jetw.etl.TraceLevel;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Events with caller-set time stamps (ClassicProvider.writeAt, WNODE_FLAG_USE_TIMESTAMP on Windows):
 * CHECKPOINTs stamped one millisecond apart, starting {@link #BACK_NANOS} in the past, written in
 * reverse time order. Read back in time order they must come out in stamp order, exactly
 * {@link #SPACING_NANOS} apart (to a tick of the session clock): the stamps are the caller's, not the
 * time of the write.
 */
final class CallerTimeWorkload {

    static final int EVENTS = 10;
    static final long SPACING_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    static final long BACK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    static final int METHOD_ID = 7;

    private CallerTimeWorkload() {
    }

    static List<WrittenThread> write(ClassicProvider provider, ThreadIds ids) {
        WrittenThread mine = new WrittenThread(Thread.currentThread().getName(), ids.current());
        EventScratch scratch = provider.newScratch();
        try {
            long first = System.nanoTime() - BACK_NANOS;
            int instance = provider.newInstanceId(scratch, JetwSchema.METHOD_CALL_INDEX);
            List<ExpectedEvent> inTimeOrder = new ArrayList<>();
            boolean[] accepted = new boolean[EVENTS];
            for (int k = EVENTS - 1; k >= 0; k--) {
                ByteBuffer p = scratch.payload(64);
                p.putInt(METHOD_ID);
                String label = "stamp " + k;
                for (int i = 0; i < label.length(); i++) {
                    p.putChar(label.charAt(i));
                }
                p.putChar('\0');
                byte[] bytes = new byte[p.position()];
                ((ByteBuffer) p.duplicate().flip()).get(bytes);
                accepted[k] = provider.writeAt(scratch, first + k * SPACING_NANOS, EventType.CHECKPOINT, TraceLevel.INFORMATION,
                        JetwSchema.METHOD_CALL_INDEX, instance, -1, 0);
                inTimeOrder.add(new ExpectedEvent(EventType.CHECKPOINT, TraceLevel.INFORMATION, instance, 0, bytes));
            }
            Collections.reverse(inTimeOrder);
            for (int k = 0; k < EVENTS; k++) {
                if (accepted[k]) {
                    mine.events.add(inTimeOrder.get(k));
                } else {
                    mine.refused++;
                }
            }
        } finally {
            provider.retire(scratch);
        }
        List<WrittenThread> written = new ArrayList<>();
        written.add(mine);
        return written;
    }

    /** Problems with the spacing of the MethodCall records' time stamps; the records in time order. */
    static List<String> spacing(Path etl, List<String> facts) throws IOException {
        List<Long> stamps = new ArrayList<>();
        long perfFreq;
        try (EtlReader reader = EtlReader.open(etl)) {
            perfFreq = reader.header().perfFreq();
            for (EtlRecord r = reader.next(); r != null; r = reader.next()) {
                if (JetwSchema.METHOD_CALL_CLASS.equals(r.guid())) {
                    stamps.add(r.fileTime());
                }
            }
        }
        Collections.sort(stamps);
        // Two roundings (nanoTime to a clock tick, the tick to 100 ns units), a tick each at most.
        long tickUnits = perfFreq > 0 ? (10_000_000L + perfFreq - 1) / perfFreq : 1;
        long tolerance = 2 * Math.max(1, tickUnits);
        long want = SPACING_NANOS / 100;
        List<String> problems = new ArrayList<>();
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < stamps.size(); i++) {
            long gap = stamps.get(i) - stamps.get(i - 1);
            gaps.add(gap);
            if (Math.abs(gap - want) > tolerance) {
                problems.add("caller-set time stamps " + (i - 1) + " and " + i + " are " + gap * 100 + " ns apart in the file, "
                        + SPACING_NANOS + " ns were set (tolerance " + tolerance * 100 + " ns)");
            }
        }
        facts.add("gaps between caller-set time stamps in the file, in 100 ns units: " + gaps + " (set: " + want + ")");
        return problems;
    }
}
