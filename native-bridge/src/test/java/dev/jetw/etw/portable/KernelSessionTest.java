package dev.jetw.etw.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.EventType;
import dev.jetw.etl.SessionNotice;
import dev.jetw.etl.TraceLevel;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.KernelFlag;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.OsThreadId;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import dev.jetw.etw.portable.linux.KernelTests;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The portable session with kernel= on Linux, against the real kernel (tracefs as root; skipped with the
 * reason elsewhere, see KernelTests): a traced thread's Thread.sleep(50) between a START and an END of
 * jetw's provider, and a write + fsync; the file must hold, on the session's one clock, the sleep's
 * switch out (Waiting) and its wake-up inside the START/END bracket, the disk I/O issued by that thread,
 * the process and thread records, each CSwitch in the buffer of its CPU; nothing may be left in tracefs.
 */
class KernelSessionTest {

    /** How far a kernel time may stray outside the Java bracket: the clocks agree within 0.3 µs (DESIGN), ticks are 100 ns. */
    static final long TOLERANCE_TICKS = 10;

    private final PortableBackend etw = new PortableBackend();

    @TempDir
    Path dir;

    @Test
    void sleepAndFsyncOfATracedThreadAreInTheTraceOnOneClock() throws Exception {
        KernelTests.require("KernelSessionTest.sleepAndFsyncOfATracedThreadAreInTheTraceOnOneClock");
        String name = TestSupport.uniqueName("kernel");
        Path file = dir.resolve("kernel.etl");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).flushTimerSeconds(1)
                .modes(EnumSet.of(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER))
                .kernelFlags(EnumSet.of(KernelFlag.PROCESS, KernelFlag.THREAD, KernelFlag.CSWITCH, KernelFlag.DISK_IO))
                .build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        int mainTid = OsThreadId.current();
        int[] workerTid = new int[1];
        Throwable[] failed = new Throwable[1];
        Thread worker = new Thread(() -> {
            try {
                workerTid[0] = OsThreadId.current();
                EventScratch s = p.newScratch();
                int id = p.newInstanceId(s, 0);
                s.payload(4).putInt(1);
                p.write(s, EventType.START, TraceLevel.INFORMATION, 0, id, -1, 0);
                Thread.sleep(50);
                s.payload(4).putInt(1);
                p.write(s, EventType.END, TraceLevel.INFORMATION, 0, id, -1, 0);
                Path data = dir.resolve("data.bin");
                try (FileChannel ch = FileChannel.open(data, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    ch.write(ByteBuffer.allocate(256 << 10));
                    ch.force(true);
                }
            } catch (Throwable e) {
                failed[0] = e;
            }
        }, "kernel-test-worker");
        worker.start();
        worker.join();
        assertEquals(null, failed[0]);
        Thread.sleep(300); // the pollers read every 100 ms; stop drains the rest anyway
        SessionStats stats = etw.stopSession(name);
        p.close();

        assertNotNull(stats.kernelLine(), stats.toString());
        assertTrue(stats.kernelEventsWritten() > 0, stats.kernelLine());
        assertFalse(leftInTracefs(), "a tracefs instance of this JVM is left after stop");

        List<EtlRecord> records = new ArrayList<>();
        List<Integer> processorOf = new ArrayList<>();
        long start = -1;
        long end = -1;
        try (EtlReader r = EtlReader.open(file)) {
            assertEquals(stats.eventsLost(), r.header().eventsLost() & 0xFFFFFFFFL);
            for (EtlRecord rec = r.next(); rec != null; rec = r.next()) {
                if (rec.isLogfileHeader()) {
                    continue;
                }
                records.add(rec);
                processorOf.add(r.buffers().get(rec.bufferIndex()).processorIndex());
                assertTrue(processorOf.get(processorOf.size() - 1) < r.header().numberOfProcessors());
                if (rec.guid() != null && rec.guid().equals(p.eventClassGuids().get(0))) {
                    if (rec.type() == EventType.START) {
                        start = rec.rawTimestamp();
                    } else if (rec.type() == EventType.END) {
                        end = rec.rawTimestamp();
                    }
                }
            }
            assertTrue(r.problems().isEmpty(), r.problems().toString());
        }
        assertTrue(start > 0 && end > start, "START and END of the traced call");

        long switchOut = -1;
        long lastIn = -1;
        int cswitches = 0;
        boolean processRundown = false;
        boolean mainRundown = false;
        boolean workerStart = false;
        boolean workerEnd = false;
        long diskBytes = 0;
        boolean flush = false;
        int notices = 0;
        for (int i = 0; i < records.size(); i++) {
            EtlRecord rec = records.get(i);
            ByteBuffer b = ByteBuffer.wrap(rec.userData()).order(ByteOrder.LITTLE_ENDIAN);
            long t = rec.rawTimestamp();
            if (SessionNotice.decode(rec) != null) {
                notices++;
                continue;
            }
            if (rec.group() == 0x05 && rec.type() == 36) {
                cswitches++;
                assertEquals(2, rec.version());
                assertEquals(b.get(15), processorOf.get(i).byteValue(), "a CSwitch sits in its CPU's buffer");
                int newTid = b.getInt(0);
                int oldTid = b.getInt(4);
                if (oldTid == workerTid[0] && b.get(14) == 5 && t >= start - TOLERANCE_TICKS && t <= end && switchOut < 0) {
                    switchOut = t;
                    assertEquals(6, b.get(12), "a sleep is S: Waiting, UserRequest");
                }
                if (newTid == workerTid[0] && t <= end + TOLERANCE_TICKS) {
                    lastIn = Math.max(lastIn, t);
                }
            } else if (rec.group() == 0x05 && rec.type() == 50) {
                if (b.getInt(0) == workerTid[0] && t <= end + TOLERANCE_TICKS) {
                    lastIn = Math.max(lastIn, t); // the wake-up: on this VM a switch in from an idle CPU may be missing
                }
            } else if (rec.group() == 0x03 && rec.type() == 3) {
                processRundown |= b.getInt(8) == ProcessIds.current();
            } else if (rec.group() == 0x05 && rec.type() == 3) {
                assertEquals(3, rec.version());
                mainRundown |= b.getInt(4) == mainTid;
            } else if (rec.group() == 0x05 && rec.type() == 1) {
                workerStart |= b.getInt(4) == workerTid[0];
            } else if (rec.group() == 0x05 && rec.type() == 2) {
                workerEnd |= b.getInt(4) == workerTid[0];
            } else if (rec.group() == 0x01 && (rec.type() == 10 || rec.type() == 11)) {
                assertEquals(3, rec.version());
                if (b.getInt(48) == workerTid[0]) {
                    diskBytes += b.getInt(8);
                }
            } else if (rec.group() == 0x01 && rec.type() == 14) {
                flush |= b.getInt(24) == workerTid[0];
            }
        }
        System.out.printf("kernel records: %d CSwitch; sleep: START -> switch out %.1f us, wake-up -> END %.1f us%n",
                cswitches, (switchOut - start) / 10.0, (end - lastIn) / 10.0);
        assertTrue(cswitches > 0);
        assertTrue(switchOut > 0, "the sleep's switch out (Waiting) lies inside the call");
        assertTrue(lastIn >= switchOut + 490_000, "woken (readied or switched in) 49 ms after the switch out or later");
        assertTrue(lastIn <= end + TOLERANCE_TICKS, "and before the END");
        assertTrue(processRundown, "Process/DCStart of this JVM");
        assertTrue(mainRundown, "Thread/DCStart of the test's thread");
        assertTrue(workerStart && workerEnd, "Thread/Start and Thread/End of the worker");
        assertTrue(diskBytes >= 256 << 10, "the worker's 256 KiB written to disk, by IssuingThreadId: " + diskBytes);
        assertTrue(flush, "the worker's fsync as DiskIo/FlushBuffers");
        assertTrue(notices > 0, "the DiskNumber note");
    }

    @Test
    void ringOverrunsAreCountedAsLostKernelEventsEverywhere() throws Exception {
        KernelTests.require("KernelSessionTest.ringOverrunsAreCountedAsLostKernelEventsEverywhere");
        String name = TestSupport.uniqueName("overrun");
        Path file = dir.resolve("overrun.etl");
        // A poller that reads every 3 s (never sooner: a test's slow poller takes no busy passes) into 128 KiB rings, and
        // two threads handing a token over as fast as they can: 60,000 hand-offs (each a switch out and a wake-up, far
        // more than 128 KiB a CPU holds), not a fixed time. A poller that hurried after a first pass that met the
        // ping-pong kept up once (0 lost), and 1.5 s of ping-pong on a load of 6 once made too few switches.
        dev.jetw.etw.portable.linux.TracefsTestAccess.slowPoller(3000, 128);
        try {
            etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).flushTimerSeconds(1)
                    .modes(EnumSet.of(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER))
                    .kernelFlags(EnumSet.of(KernelFlag.CSWITCH)).build());
        } finally {
            dev.jetw.etw.portable.linux.TracefsTestAccess.slowPoller(0, 0);
        }
        long handoffs = pingPong(60_000, 20_000);
        SessionStats stats = etw.stopSession(name);
        assertTrue(stats.kernelEventsLost() > 0, stats.kernelLine() + " after " + handoffs + " hand-offs");
        assertTrue(stats.kernelLine().contains(stats.kernelEventsLost() + " kernel events lost"), stats.kernelLine());
        assertEquals(stats.kernelEventsLost(), stats.eventsLost(), "no jetw event was lost: the kernel's are all of them");
        int gapNotes = 0;
        String problem = null;
        try (EtlReader r = EtlReader.open(file)) {
            assertEquals(stats.eventsLost(), r.header().eventsLost() & 0xFFFFFFFFL, "the header's EventsLost");
            for (EtlRecord rec = r.next(); rec != null; rec = r.next()) {
                SessionNotice n = SessionNotice.decode(rec);
                if (n != null && n.text().startsWith("kernel events lost on CPU")) {
                    gapNotes++;
                } else if (n != null && n.isProblem()) {
                    problem = n.text();
                }
            }
            assertTrue(r.problems().isEmpty(), r.problems().toString());
        }
        assertTrue(gapNotes > 0, "each gap is noted where it happened");
        assertEquals(stats.kernelEventsLost() + " kernel events were lost: overwritten in tracefs's ring buffers before the"
                + " collector read them; thread states near the gaps are uncertain", problem);
        System.out.println("overrun: " + stats.kernelLine() + "; " + gapNotes + " gap notes");
    }

    /**
     * Two threads hand a token to each other with park/unpark until they have done it {@code handoffs} times or
     * {@code capMillis} have passed: many context switches. Returns the hand-offs made.
     */
    static long pingPong(long handoffs, long capMillis) throws InterruptedException {
        java.util.concurrent.atomic.AtomicReference<Thread> turn = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicLong made = new java.util.concurrent.atomic.AtomicLong();
        Thread[] t = new Thread[2];
        long end = System.nanoTime() + capMillis * 1_000_000L;
        for (int i = 0; i < 2; i++) {
            int me = i;
            t[i] = new Thread(() -> {
                while (System.nanoTime() < end && made.get() < handoffs) {
                    while (turn.get() != Thread.currentThread() && System.nanoTime() < end && made.get() < handoffs) {
                        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
                    }
                    made.incrementAndGet();
                    turn.set(t[1 - me]);
                    java.util.concurrent.locks.LockSupport.unpark(t[1 - me]);
                }
            }, "ping-pong-" + i);
        }
        turn.set(t[0]);
        t[0].start();
        t[1].start();
        t[0].join();
        t[1].join();
        return made.get();
    }

    /** True while tracefs holds an instance named after this JVM. */
    static boolean leftInTracefs() {
        String[] names = tracefsInstances();
        String mine = "jetw-" + ProcessIds.current() + "-";
        for (String n : names) {
            if (n.startsWith(mine)) {
                return true;
            }
        }
        return false;
    }

    static String[] tracefsInstances() {
        File root = dev.jetw.etw.portable.linux.TracefsTestAccess.root();
        String[] names = root == null ? null : new File(root, "instances").list();
        return names == null ? new String[0] : names;
    }
}
