package dev.jetw.etw.portable.linux;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.KernelRecords;
import dev.jetw.etl.SessionNotice;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * perf samples of this process become SampledProfile and HardFault records byte for byte as the etl-format
 * fixtures lay them out (KernelRecords: the records KernelDecoderTest and WhyCommandTest decode), on the ring's CPU
 * at the sample's time; other processes' samples are skipped; LOST records are counted exactly, with a note at
 * their own time.
 */
class PerfRecordTranslatorTest {

    static final int PID = 4242;

    /** A cpu-clock sample record (IP, TID, TIME). */
    static ByteBuffer sample(long ip, int pid, int tid, long time) {
        ByteBuffer b = ByteBuffer.allocate(32).order(ByteOrder.nativeOrder());
        b.putInt(0, PerfRecordTranslator.RECORD_SAMPLE).putShort(6, (short) 32);
        b.putLong(8, ip).putInt(16, pid).putInt(20, tid).putLong(24, time);
        return b;
    }

    /** The whole record as the session writes it: the header the sink was given, then the payload. */
    static byte[] asWritten(EvidenceTranslatorTest.Rec r) {
        byte[] payload = new byte[r.payload.capacity()];
        r.payload.duplicate().get(payload);
        return EtlFixtureBuilder.systemLike(r.headerType, r.version, r.group, r.type,
                r.headerType == dev.jetw.etl.EtlFormat.HT_PERFINFO64 ? 0 : r.tid,
                r.headerType == dev.jetw.etl.EtlFormat.HT_PERFINFO64 ? 0 : r.pid, r.ns, payload);
    }

    @Test
    void aSampleOfThisProcessIsASampledProfileOnItsCpu() {
        EvidenceTranslatorTest.Recording sink = new EvidenceTranslatorTest.Recording();
        PerfRecordTranslator.Counters counters = new PerfRecordTranslator.Counters();
        PerfRecordTranslator t = new PerfRecordTranslator(PerfRecordTranslator.Kind.CPU_SAMPLES, 1, PID, 4096, sink, counters);
        t.record(PerfRecordTranslator.RECORD_SAMPLE, sample(0x7f00deadbeefL, PID, 4250, 5_000_000L), 0, 32);
        t.record(PerfRecordTranslator.RECORD_SAMPLE, sample(0x401000L, 999, 999, 5_001_000L), 0, 32); // another process
        assertEquals(1, sink.records.size());
        EvidenceTranslatorTest.Rec r = sink.records.get(0);
        assertEquals(1, r.cpu, "the ring's CPU: the buffer's ProcessorIndex");
        assertEquals(5_000_000L, r.ns, "the sample's CLOCK_MONOTONIC time, System.nanoTime()'s clock");
        assertArrayEquals(KernelRecords.sample(5_000_000L, 0x7f00deadbeefL, 4250), asWritten(r),
                "PerfInfo/SampledProfile v2, PERFINFO64: InstructionPointer, ThreadId, Count 1, Reserved");
        assertEquals(1, counters.written);
    }

    @Test
    void aMajorFaultOfThisProcessIsAHardFaultOfZeroDuration() {
        EvidenceTranslatorTest.Recording sink = new EvidenceTranslatorTest.Recording();
        PerfRecordTranslator t = new PerfRecordTranslator(PerfRecordTranslator.Kind.HARD_FAULTS, 0, PID, 4096, sink,
                new PerfRecordTranslator.Counters());
        ByteBuffer b = ByteBuffer.allocate(48).order(ByteOrder.nativeOrder());
        b.putInt(0, PerfRecordTranslator.RECORD_SAMPLE).putShort(6, (short) 40);
        b.putLong(8, 0x7f0000401234L).putInt(16, PID).putInt(20, 4251).putLong(24, 7_000_000L).putLong(32, 0x7f1234567000L);
        t.record(PerfRecordTranslator.RECORD_SAMPLE, b, 0, 40);
        assertEquals(1, sink.records.size());
        EvidenceTranslatorTest.Rec r = sink.records.get(0);
        long initial = sink.timeStamp(7_000_000L);
        assertArrayEquals(KernelRecords.hardFault(7_000_000L, initial, 0, 0x7f1234567000L, 0, 4251, 4096, 4251, PID),
                asWritten(r), "PageFault/HardFault v2, SYSTEM64 with the thread: InitialTime = its own time stamp,"
                        + " ReadOffset 0, VirtualAddress, FileObject 0, TThreadId, ByteCount = one page");
    }

    @Test
    void lostRecordsAreCountedExactlyWithANoteWhereTheGapEnded() {
        EvidenceTranslatorTest.Recording sink = new EvidenceTranslatorTest.Recording();
        PerfRecordTranslator.Counters counters = new PerfRecordTranslator.Counters();
        PerfRecordTranslator t = new PerfRecordTranslator(PerfRecordTranslator.Kind.CPU_SAMPLES, 0, PID, 4096, sink, counters);
        ByteBuffer lost = ByteBuffer.allocate(40).order(ByteOrder.nativeOrder());
        lost.putInt(0, PerfRecordTranslator.RECORD_LOST).putShort(6, (short) 40);
        lost.putLong(8, 77).putLong(16, 1234).putInt(24, 0).putInt(28, 0).putLong(32, 9_000_000L);
        t.record(PerfRecordTranslator.RECORD_LOST, lost, 0, 40);
        t.record(PerfRecordTranslator.RECORD_LOST, lost, 0, 40);
        assertEquals(2468, sink.lost);
        assertEquals(2468, counters.lost);
        assertEquals(2, sink.notices.size());
        assertEquals(SessionNotice.NOTE, sink.notices.get(0).kind());
        assertTrue(sink.notices.get(0).text().contains("1234 CPU samples"), sink.notices.get(0).text());
        assertEquals(0, sink.records.size());
    }

    @Test
    void aLostSamplesRecordIsStampedWithItsOwnTimeNotNow() {
        EvidenceTranslatorTest.Recording sink = new EvidenceTranslatorTest.Recording();
        PerfRecordTranslator.Counters counters = new PerfRecordTranslator.Counters();
        PerfRecordTranslator t = new PerfRecordTranslator(PerfRecordTranslator.Kind.CPU_SAMPLES, 1, PID, 4096, sink, counters);
        ByteBuffer lost = ByteBuffer.allocate(32).order(ByteOrder.nativeOrder()); // u64 lost, then u32 pid, tid; u64 time
        lost.putInt(0, PerfRecordTranslator.RECORD_LOST_SAMPLES).putShort(6, (short) 32);
        lost.putLong(8, 5).putInt(16, 0).putInt(20, 0).putLong(24, 7_000_000L);
        t.record(PerfRecordTranslator.RECORD_LOST_SAMPLES, lost, 0, 32);
        assertEquals(5, sink.lost);
        assertEquals(5, t.reportedLost);
        assertEquals(1, sink.noticeTimes.size());
        assertEquals(7_000_000L, (long) sink.noticeTimes.get(0), "the record's sample_id time, not NOW");
    }

    @Test
    void aSampleReadFromARingThatWrappedIsTheSameRecord() {
        ByteBuffer m = PerfRingTest.mapping();
        long start = PerfRingTest.DATA - 8;
        m.putLong(PerfRing.DATA_TAIL, start);
        long end = PerfRingTest.put(m, start, PerfRecordTranslator.RECORD_SAMPLE, 0x401000L,
                (long) 4250 << 32 | PID, 3_000_000L);
        m.putLong(PerfRing.DATA_HEAD, end);
        EvidenceTranslatorTest.Recording sink = new EvidenceTranslatorTest.Recording();
        new PerfRing(m, new PerfRingTest.CountingFences()).drain(new PerfRecordTranslator(
                PerfRecordTranslator.Kind.CPU_SAMPLES, 0, PID, 4096, sink, new PerfRecordTranslator.Counters()));
        assertEquals(1, sink.records.size());
        assertArrayEquals(KernelRecords.sample(3_000_000L, 0x401000L, 4250), asWritten(sink.records.get(0)));
    }
}
