package dev.jetw.etw.portable;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.SessionNotice;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reads a file written by the engine with the product's reader (dev.jetw.etl.EtlReader), expecting no damage. */
final class ReaderCheck {

    private ReaderCheck() {
    }

    /**
     * The file's events in the reader's order, as test events: the records the session was given, so the
     * file's own preamble (the logfile header record, the writer notice after it and a ring's RING notice) excluded.
     */
    static List<EtlLayoutCheck.Event> events(Path file) throws Exception {
        List<EtlLayoutCheck.Event> l = new ArrayList<>();
        try (EtlReader r = EtlReader.open(file)) {
            EtlRecord rec;
            int index = 0;
            while ((rec = r.next()) != null) {
                if (index++ == 0) {
                    assertTrue(rec.isLogfileHeader(), file + ": first record is the logfile header");
                    continue;
                }
                SessionNotice notice = SessionNotice.decode(rec);
                if (index == 2 && notice != null && notice.isWriter()) {
                    assertEquals(SessionEnvironment.WRITER, notice.text(), file + ": the writer notice follows the header");
                    continue;
                }
                if (index == 3 && notice != null && notice.isRing()) {
                    continue; // a buffering ring's file: part of the preamble too
                }
                EtlLayoutCheck.Event e = new EtlLayoutCheck.Event();
                e.headerType = rec.headerType();
                e.type = rec.type();
                e.level = rec.level();
                e.version = rec.version();
                e.threadId = rec.threadId();
                e.processId = rec.processId();
                e.timeStamp = rec.rawTimestamp();
                e.classGuid = rec.guid();
                e.instanceId = rec.instanceId();
                e.parentInstanceId = rec.parentInstanceId();
                // The reader gives null for the zero ParentGuid of an instance event without a parent.
                e.parentGuid = rec.parentGuid() == null && rec.isInstanceEvent() ? new java.util.UUID(0, 0) : rec.parentGuid();
                e.payload = rec.userData();
                long ft = rec.fileTime();
                assertTrue(ft >= r.header().startTime() && ft <= r.header().endTime(),
                        file + ": event time within StartTime..EndTime");
                l.add(e);
            }
            assertTrue(r.problems().isEmpty(), file + ": " + r.problems());
            assertEquals(0, r.unknownRecords(), file + ": unknown records");
            assertEquals(r.buffers().size(), r.header().buffersWritten(), file + ": BuffersWritten");
        }
        return l;
    }
}
