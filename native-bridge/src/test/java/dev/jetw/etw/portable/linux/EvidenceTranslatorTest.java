package dev.jetw.etw.portable.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.etl.SessionNotice;
import dev.jetw.etw.KernelFlag;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * From evidence to Windows kernel records, without a kernel: the real capture (python3 20338 runs sh 20379,
 * which runs sleep, dd with fsync, rm) replayed through the translator with python3 as the traced process;
 * hand-made sequences for the mapping of prev_state, task following, disk attribution and losses; the block
 * matcher and the task table on their own.
 */
class EvidenceTranslatorTest {

    /** One record as the sink received it. */
    static final class Rec {
        final int cpu;
        final long ns;
        final boolean compact;
        final int headerType;
        final int version;
        final int group;
        final int type;
        final int tid;
        final int pid;
        final ByteBuffer payload;

        Rec(int cpu, long ns, int headerType, int version, int group, int type, int tid, int pid, ByteBuffer p, int n) {
            this.cpu = cpu;
            this.ns = ns;
            this.headerType = headerType;
            this.compact = headerType == dev.jetw.etl.EtlFormat.HT_COMPACT64;
            this.version = version;
            this.group = group;
            this.type = type;
            this.tid = tid;
            this.pid = pid;
            byte[] copy = new byte[n];
            for (int i = 0; i < n; i++) {
                copy[i] = p.get(i);
            }
            this.payload = ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN);
        }

        boolean is(int g, int t) {
            return group == g && type == t;
        }
    }

    static class Recording implements KernelRecordSink {
        final List<Rec> records = new ArrayList<>();
        final List<SessionNotice> notices = new ArrayList<>();
        /** The nanoTime each notice was stamped with (NOW as given), in the order of {@link #notices}. */
        final List<Long> noticeTimes = new ArrayList<>();
        long lost;

        @Override
        public void write(int cpu, long nanoTime, int headerType, int version, int group, int type, int threadId,
                          int processId, ByteBuffer payload, int length) {
            records.add(new Rec(cpu, nanoTime, headerType, version, group, type, threadId, processId, payload, length));
        }

        /** The file's raw stamps in tests: nanoTime + 1,000,000,000, so that a stamp is never mistaken for its nanoTime. */
        @Override
        public long timeStamp(long nanoTime) {
            return nanoTime + 1_000_000_000L;
        }

        @Override
        public void lost(long count) {
            lost += count;
        }

        @Override
        public void notice(int kind, String text, long nanoTime) {
            notices.add(new SessionNotice(kind, text));
            noticeTimes.add(nanoTime);
        }

        List<Rec> of(int group, int type) {
            List<Rec> out = new ArrayList<>();
            for (Rec r : records) {
                if (r.is(group, type)) {
                    out.add(r);
                }
            }
            return out;
        }
    }

    static KernelFlagPlan all() {
        return KernelFlagPlan.of(EnumSet.of(KernelFlag.PROCESS, KernelFlag.THREAD, KernelFlag.CSWITCH, KernelFlag.DISK_IO,
                KernelFlag.DISK_IO_INIT));
    }

    static DiskNumbers noDisks() {
        return new DiskNumbers(new File("/nonexistent-sys-block"));
    }

    @Test
    void theCaptureReplayedWithPython3AsTheTracedProcess() throws Exception {
        Recording out = new Recording();
        EvidenceTranslator t = new EvidenceTranslator(all(), 20338, out, noDisks(), false);
        t.threadGroupOf = tid -> -1; // the capture's threads are not this machine's: no /proc lookup
        t.ownThreadName = tid -> null;
        t.rundown(Collections.singletonList(20338), 1L, 1, "python3", "python3 cap.py");
        t.applyHandedOver();
        TracepointDecoder decoder = new TracepointDecoder(t);
        for (String f : new String[] {"sched.sched_switch", "sched.sched_waking", "sched.sched_wakeup_new",
                "task.task_newtask", "sched.sched_process_exit", "block.block_io_start", "block.block_rq_complete"}) {
            String[] sn = f.split("\\.");
            decoder.learn(TracepointDecodingTest.format(sn[0], sn[1]));
        }
        t.prevState(decoder.prevState());
        HeaderPage hp = HeaderPage.parse(TracepointDecodingTest.text("header_page"));
        // As the poller reads them: all of CPU 0's pages, then CPU 1's; in time order only through TimeOrderedPages.
        TimeOrderedPages ordered = new TimeOrderedPages(hp.pageSize(), new PageDecoder(hp), decoder, t::applyHandedOver);
        for (int cpu = 0; cpu < 2; cpu++) {
            byte[] all = TracepointDecodingTest.bytes("cpu" + cpu + ".pages");
            for (int at = 0; at < all.length; at += hp.pageSize()) {
                ordered.page(cpu, ByteBuffer.wrap(all, at, hp.pageSize()).slice().order(ByteOrder.LITTLE_ENDIAN));
            }
        }
        assertEquals(162, ordered.waiting());
        ordered.passDone(Long.MAX_VALUE);
        assertEquals(0, ordered.waiting());
        t.flushBlocks();

        assertEquals(1, out.of(0x03, 3).size(), "Process/DCStart");
        assertEquals(1, out.of(0x05, 3).size(), "Thread/DCStart of the rundown");
        // Every switch of the capture is written (the kernel's pid filter chose them), in the CPU's stream.
        List<Rec> cs = out.of(0x05, 36);
        assertEquals(64, cs.size());
        for (Rec r : cs) {
            assertTrue(r.compact);
            assertEquals(2, r.version);
            assertEquals(r.cpu, r.payload.get(15), "OldThreadWaitIdealProcessor = the CPU");
            assertEquals(r.tid, r.payload.getInt(0), "header thread = the new thread");
        }
        Rec firstOut = cs.get(0); // python3 20338 D ==> sh 20379, on CPU 0
        assertEquals(20379, firstOut.payload.getInt(0));
        assertEquals(20338, firstOut.payload.getInt(4));
        assertEquals(5, firstOut.payload.get(14), "D: Waiting");
        assertEquals(0, firstOut.payload.get(12), "D: Executive");
        assertEquals(20379, firstOut.pid, "sh is followed: a child process of python3");
        // sh, sleep, dd, the second sh and rm: child processes (vfork), each Process/Start + Thread/Start.
        assertEquals(5, out.of(0x03, 1).size());
        assertEquals(5, out.of(0x05, 1).size());
        assertEquals(5, out.of(0x05, 2).size(), "Thread/End of each child");
        assertEquals(5, out.of(0x03, 2).size(), "Process/End: group_dead");
        assertTrue(t.switchedOutNotRunning > 0, "this kernel dropped switches in from CPU 1's idle task (pitfall 13)");
        // Every other thread met in a switch (not followed, not idle) is named once by Thread/SetName.
        java.util.Set<Integer> followed = new java.util.HashSet<>(List.of(20338));
        for (Rec r : out.of(0x05, 1)) {
            followed.add(r.payload.getInt(4));
        }
        java.util.Set<Integer> others = new java.util.TreeSet<>();
        for (Rec r : cs) {
            for (int tid : new int[] {r.payload.getInt(0), r.payload.getInt(4)}) {
                if (tid != 0 && !followed.contains(tid)) {
                    others.add(tid);
                }
            }
        }
        java.util.Set<Integer> named = new java.util.TreeSet<>();
        for (Rec r : out.of(0x05, 72)) {
            assertTrue(named.add(r.payload.getInt(4)), "named once: " + r.payload.getInt(4));
        }
        assertFalse(others.isEmpty());
        assertEquals(others, named);

        // dd 20381: a 256 KiB data write, five 4 KiB journal writes, then the fsync's flush; sh's reads; rm's discard.
        int ddWrites = 0;
        long ddBytes = 0;
        for (Rec r : out.of(0x01, 11)) {
            assertEquals(3, r.version);
            if (r.payload.getInt(48) == 20381) {
                ddWrites++;
                ddBytes += r.payload.getInt(8);
                assertEquals(20381, r.tid);
                assertEquals(-1, r.payload.getInt(0), "DiskNumber unknown without /sys/block");
            }
        }
        assertEquals(6, ddWrites);
        assertEquals(262144 + 5 * 4096, ddBytes);
        Rec big = null;
        for (Rec r : out.of(0x01, 11)) {
            if (r.payload.getInt(8) == 262144) {
                big = r;
            }
        }
        assertEquals(47363072L * 512, big.payload.getLong(16), "ByteOffset = sector * 512");
        long ticks = big.payload.getLong(40);
        assertTrue(ticks >= 2580 && ticks <= 2600, "259 us from io_start to completion, in 100 ns ticks: " + ticks);
        assertEquals(KernelPayloads.IRP_NOCACHE | KernelPayloads.IRP_WRITE_OPERATION | KernelPayloads.IRP_SYNCHRONOUS_API,
                big.payload.getInt(4));
        List<Rec> flushes = out.of(0x01, 14);
        assertEquals(1, flushes.size());
        assertEquals(20381, flushes.get(0).payload.getInt(24));
        assertEquals(10, out.of(0x01, 10).size(), "sh's eight metadata reads and dd's two readaheads");
        assertEquals(1, t.discards, "rm's discard has no DiskIo type");
        assertEquals(out.of(0x01, 10).size() + 6 + 1, out.of(0x01, 12).size() + out.of(0x01, 13).size()
                + out.of(0x01, 15).size(), "an Init per request");
        assertEquals(0, t.matcher().inFlight());
        assertEquals(0, t.matcher().unmatchedCompletions);
    }

    @Test
    void prevStatesThreadsAndWakeups() {
        Recording out = new Recording();
        EvidenceTranslator t = new EvidenceTranslator(all(), 100, out, noDisks(), false);
        t.rundown(Arrays.asList(100, 101), 5L, 1, "java", "java -jar app.jar");
        t.applyHandedOver();
        t.contextSwitch(0, 10, 101, 120, 0x1, 102, 120);   // 101 S, to 102 (another process)
        t.contextSwitch(1, 11, 100, 120, 0x100, 0, 120);   // 100 R+ (preempted)
        t.contextSwitch(1, 12, 0, 120, 0, 100, 139);        // idle to 100, nice 19
        t.contextSwitch(1, 13, 100, 120, 0x0, 0, 120);      // 100 R
        t.contextSwitch(0, 14, 102, 120, 0x2, 101, 100);    // 102 D, to 101 (rt prio 100 = nice -20)
        t.contextSwitch(0, 15, 101, 120, 0x20, 0, 120);     // 101 Z
        t.wakeup(0, 20, TracepointSink.WakeKind.WAKING, 0, 100, 120, 1, 0x9);   // from a hard interrupt of idle
        t.wakeup(0, 21, TracepointSink.WakeKind.WAKEUP, 101, 100, 120, 1, 0);   // sched_wakeup: not used
        t.taskNew(0, 30, 100, 103, "worker", EvidenceTranslator.CLONE_THREAD | 0x3d0f00);
        t.taskNew(0, 31, 999, 104, "other", 0);                                 // parent not followed
        t.contextSwitch(1, 32, 103, 120, 0x1, 0, 120);                          // 103 out, never in: pitfall 13
        List<Rec> cs = out.of(0x05, 36);
        assertEquals(7, cs.size());
        int[][] expected = { // state, reason, mode, new priority
            {5, 6, 1, 8}, {1, 32, 0, 8}, {1, 32, 0, 1}, {1, 32, 0, 8}, {5, 0, 0, 15}, {4, 22, 0, 8}, {5, 6, 1, 8}};
        for (int i = 0; i < expected.length; i++) {
            ByteBuffer p = cs.get(i).payload;
            assertEquals(expected[i][0], p.get(14), "state " + i);
            assertEquals(expected[i][1], p.get(12), "reason " + i);
            assertEquals(expected[i][2], p.get(13), "mode " + i);
            assertEquals(expected[i][3], p.get(8), "new priority " + i);
        }
        assertEquals(EvidenceTranslator.UNKNOWN_PROCESS, cs.get(0).pid, "102 is not followed");
        assertEquals(100, cs.get(2).pid);
        List<Rec> ready = out.of(0x05, 50);
        assertEquals(1, ready.size(), "sched_waking only");
        assertEquals(100, ready.get(0).payload.getInt(0));
        assertEquals(1, ready.get(0).payload.get(6), "readied from an interrupt: Flag 1");
        assertEquals(0, ready.get(0).tid, "header thread: whoever was interrupted");
        List<Rec> starts = out.of(0x05, 1);
        assertEquals(1, starts.size(), "only the followed parent's new thread");
        assertEquals(100, starts.get(0).payload.getInt(0));
        assertEquals(103, starts.get(0).payload.getInt(4));
        assertEquals(0, out.of(0x03, 1).size(), "a thread is no process");
        assertEquals(1, t.switchedOutNotRunning, "103 only: rundown threads start unknown, 100 and 101 were switched in"
                + " or unknown");

        t.taskExit(0, 40, 103, "worker", false);
        assertEquals(1, out.of(0x05, 2).size());
        assertEquals(0, out.of(0x03, 2).size());
    }

    /**
     * The rundown names the traced JVM's threads by their comm (Thread/SetName); a thread of another process met in a
     * switch is named once (Thread/SetName with the switch's comm and its
     * process from /proc), and its process gets a Process/DCStart once; a traced thread and the idle task are not
     * asked for. This test's own JVM stands in for the other process (/proc knows it); a tid beyond any pid_max has
     * no process.
     */
    @Test
    void threadsOfOtherProcessesAreNamedOnceWithTheirProcess() throws Exception {
        Recording out = new Recording();
        EvidenceTranslator t = new EvidenceTranslator(all(), 100, out, noDisks(), false);
        t.ownThreadName = tid -> tid == 100 ? "C2 CompilerThre" : null;
        t.rundown(java.util.Arrays.asList(100, 101), 5L, 1, "java", "");
        t.applyHandedOver();
        List<Rec> own = out.of(0x05, 72);
        assertEquals(1, own.size(), "the rundown names the JVM's own threads it can (GC, JIT): 100, not 101");
        assertEquals(100, own.get(0).payload.getInt(4));
        assertEquals(100, own.get(0).payload.getInt(0));
        assertEquals("C2 CompilerThre", utf16z(own.get(0).payload, 8));
        out.records.clear();
        int self = ProcFs.selfPid();
        assertTrue(t.wantsName(self));
        assertFalse(t.wantsName(100), "a traced thread: named by the rundown");
        assertFalse(t.wantsName(0), "the idle task");
        t.switchedThreadName(0, 10, self, "hog");
        assertFalse(t.wantsName(self), "named once");
        int gone = 2_000_000_000;
        t.switchedThreadName(1, 11, gone, "gone");
        List<Rec> names = out.of(0x05, 72);
        assertEquals(2, names.size());
        assertEquals(self, names.get(0).pid);
        assertEquals(self, names.get(0).payload.getInt(0), "ProcessId");
        assertEquals(self, names.get(0).payload.getInt(4), "ThreadId");
        assertEquals("hog", utf16z(names.get(0).payload, 8));
        assertEquals(0, names.get(0).cpu);
        assertEquals(-1, names.get(1).payload.getInt(0), "gone: its process is not known");
        List<Rec> processes = new ArrayList<>();
        for (Rec r : out.of(0x03, 3)) {
            if (r.payload.getInt(8) == self) {
                processes.add(r);
            }
        }
        assertEquals(1, processes.size(), "one Process/DCStart for the other process");
        byte[] image = new byte[3];
        processes.get(0).payload.position(40);
        processes.get(0).payload.get(image);
        assertEquals("hog", new String(image, java.nio.charset.StandardCharsets.ISO_8859_1),
                "its first thread's comm names it");
    }

    /**
     * The JVM's own threads that exit (a churning pool) use up none of the cap on naming other processes' threads,
     * and cost nothing that grows: each is remembered from its exit to its final switch out only (not named in
     * between, preempted or not), and when that switch is never seen, at most {@code MAX_EXITED_PENDING} of them.
     * The cap counts the names written: 10,000 other threads, then no more.
     */
    @Test
    void exitsOfTheJvmsOwnThreadsLeaveTheCapForOtherProcesses() {
        Recording out = new Recording();
        EvidenceTranslator t = new EvidenceTranslator(all(), 100, out, noDisks(), false);
        t.ownThreadName = tid -> null;
        t.threadGroupOf = tid -> 4711;
        t.rundown(Collections.singletonList(100), 5L, 1, "java", "");
        t.applyHandedOver();
        int exits = 3 * EvidenceTranslator.MAX_NAMED_OTHERS;
        long ts = 10;
        for (int i = 0; i < exits; i++) {
            int tid = 1000 + i;
            t.taskNew(0, ts++, 100, tid, "java", EvidenceTranslator.CLONE_THREAD);
            t.contextSwitch(0, ts++, 0, 120, 0, tid, 120);
            t.taskExit(0, ts++, tid, "pool-1-thread-1", false);
            assertFalse(t.wantsName(tid), "exited, not yet switched out: still the JVM's thread");
            t.contextSwitch(0, ts++, tid, 120, 0x100, 0, 120); // preempted after its exit (R+): not the final one
            assertFalse(t.wantsName(tid), "preempted after its exit");
            t.contextSwitch(0, ts++, 0, 120, 0, tid, 120);
            assertFalse(t.wantsName(tid), "switched in again after its exit");
            t.contextSwitch(0, ts++, tid, 120, 0x10, 0, 120); // its final switch out (X)
        }
        assertEquals(0, t.exitedPending(), "each forgotten at its final switch out");
        assertTrue(t.wantsName(500_000), "after " + exits + " exits of the JVM's threads another process's thread is named");
        for (int i = 0; i < exits; i++) { // exits whose final switch out is never seen
            int tid = 100_000 + i;
            t.taskNew(0, ts++, 100, tid, "java", EvidenceTranslator.CLONE_THREAD);
            t.taskExit(0, ts++, tid, "pool-2-thread-1", false);
        }
        assertEquals(EvidenceTranslator.MAX_EXITED_PENDING, t.exitedPending(), "the last exits only");
        assertFalse(t.wantsName(100_000 + exits - 1), "the last exit is still remembered");
        assertTrue(t.wantsName(500_000));
        assertEquals(0, t.namedOthers());
        assertTrue(out.of(0x05, 72).isEmpty(), "no name written for any of the JVM's exited threads");
        for (int i = 0; i < EvidenceTranslator.MAX_NAMED_OTHERS; i++) {
            assertTrue(t.wantsName(500_000 + i));
            t.switchedThreadName(1, ts++, 500_000 + i, "sh");
        }
        assertEquals(EvidenceTranslator.MAX_NAMED_OTHERS, out.of(0x05, 72).size());
        assertFalse(t.wantsName(600_000), "the cap: names written");
        assertFalse(t.wantsName(500_000), "named once");
    }

    /**
     * Another process named by a comm beyond Latin-1: its Process/DCStart's ImageFileName is the comm in UTF-8 (not
     * "???"), as its thread's SetName keeps it in UTF-16.
     */
    @Test
    void aProcessNamedBeyondLatin1KeepsItsName() {
        Recording out = new Recording();
        EvidenceTranslator t = new EvidenceTranslator(all(), 100, out, noDisks(), false);
        t.ownThreadName = tid -> null;
        t.threadGroupOf = tid -> tid;
        t.rundown(Collections.singletonList(100), 5L, 1, "java", "");
        t.applyHandedOver();
        t.switchedThreadName(0, 10, 4711, "日本語");
        List<Rec> processes = new ArrayList<>();
        for (Rec r : out.of(0x03, 3)) {
            if (r.payload.getInt(8) == 4711) {
                processes.add(r);
            }
        }
        assertEquals(1, processes.size());
        byte[] want = "日本語".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] image = new byte[want.length + 1];
        processes.get(0).payload.position(40);
        processes.get(0).payload.get(image);
        assertEquals("日本語", new String(image, 0, want.length, java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(0, image[want.length], "NUL-terminated");
        List<Rec> names = out.of(0x05, 72);
        assertEquals("日本語", utf16z(names.get(0).payload, 8));
    }

    /** The int set under the translator's per-switch questions: adds, removes (with the runs behind a hole) and grows. */
    @Test
    void intSetAgreesWithAHashSet() {
        IntSet set = new IntSet();
        java.util.Set<Integer> model = new java.util.HashSet<>();
        Random r = new Random(7);
        for (int i = 0; i < 200_000; i++) {
            int v = 1 + r.nextInt(3_000);
            if (r.nextBoolean()) {
                assertEquals(model.add(v), set.add(v));
            } else {
                assertEquals(model.remove(v), set.remove(v));
            }
            int probe = 1 + r.nextInt(3_000);
            assertEquals(model.contains(probe), set.contains(probe));
            assertEquals(model.size(), set.size());
        }
        assertFalse(set.add(0));
        assertFalse(set.contains(0));
    }

    private static String utf16z(ByteBuffer b, int at) {
        StringBuilder s = new StringBuilder();
        for (int i = at; b.getShort(i) != 0; i += 2) {
            s.append((char) b.getShort(i));
        }
        return s.toString();
    }

    @Test
    void diskIoOfOtherProcessesAndLossesWithTheirNotices() {
        Recording out = new Recording();
        EvidenceTranslator t = new EvidenceTranslator(all(), 100, out, noDisks(), false);
        t.rundown(Collections.singletonList(100), 1L, 1, "java", "");
        t.applyHandedOver();
        t.block(0, 1_000, TracepointSink.BlockPhase.IO_START, 100, 254 << 20, 8, 8, 4096, "RS", 0);
        t.block(0, 1_100, TracepointSink.BlockPhase.IO_START, 555, 254 << 20, 16, 8, 4096, "W", 0);
        t.block(1, 3_000, TracepointSink.BlockPhase.RQ_COMPLETE, 0, 254 << 20, 16, 8, 0, "W", 0);
        t.block(1, 5_000, TracepointSink.BlockPhase.RQ_COMPLETE, 0, 254 << 20, 8, 8, 0, "RS", 0);
        t.flushBlocks();
        List<Rec> reads = out.of(0x01, 10);
        assertEquals(1, reads.size());
        assertEquals(40, reads.get(0).payload.getLong(40), "(5000 - 1000) ns in 100 ns ticks");
        assertEquals(5_000, reads.get(0).ns, "at the completion");
        assertEquals(1, reads.get(0).cpu, "on the completing CPU");
        assertEquals(0, out.of(0x01, 11).size(), "pid 555's write is not ours");
        assertEquals(1, t.otherProcessesIo);

        for (int i = 0; i < EvidenceTranslator.MAX_GAP_NOTICES + 5; i++) {
            t.lost(i % 2, 10_000 + i, 7);
        }
        t.lost(0, 20_000, -1);
        assertEquals(7 * (EvidenceTranslator.MAX_GAP_NOTICES + 5), out.lost);
        assertEquals(EvidenceTranslator.MAX_GAP_NOTICES, out.notices.size(), "one notice per gap, at most 20");
        assertTrue(out.notices.get(0).text().startsWith("kernel events lost on CPU 0 just before this notice: 7"));
        assertFalse(out.notices.get(0).isProblem());
    }

    @Test
    void flushesSplitDeviceKeysAndTheInternalFlushRequest() {
        List<BlockIoMatcher.DiskIo> done = new ArrayList<>();
        List<Long> started = new ArrayList<>();
        BlockIoMatcher m = new BlockIoMatcher(new BlockIoMatcher.DiskIoSink() {
            @Override
            public void started(int cpu, long ts, int issuingTid, String rwbs, boolean flush, long id) {
                started.add(id);
            }

            @Override
            public void diskIo(BlockIoMatcher.DiskIo io) {
                done.add(io);
            }
        }, false, 1_000);
        int vda = 254 << 20;
        int vdb = 254 << 20 | 16;
        // The same journal sector written twice, the second start decoded before the first completion (CPUs read in turn).
        m.event(1, 300, TracepointSink.BlockPhase.IO_START, 7, vda, 100, 8, 4096, "WSM", 0);
        m.event(0, 100, TracepointSink.BlockPhase.IO_START, 8, vda, 100, 8, 4096, "WSM", 0);
        m.event(0, 200, TracepointSink.BlockPhase.RQ_COMPLETE, 0, vda, 100, 8, 0, "WSM", 0);
        m.event(1, 400, TracepointSink.BlockPhase.RQ_COMPLETE, 0, vda, 100, 8, 0, "WSM", 0);
        // The same sector on another disk, a preflush whose internal FF request completes at sector -1.
        m.event(0, 500, TracepointSink.BlockPhase.IO_START, 9, vdb, 100, 8, 4096, "R", 0);
        m.event(0, 600, TracepointSink.BlockPhase.IO_START, 7, vda, 0, 0, 0, "FWS", 0);
        m.event(1, 650, TracepointSink.BlockPhase.RQ_COMPLETE, 0, vda, -1, 0, 0, "FF", 0);
        m.event(1, 700, TracepointSink.BlockPhase.RQ_COMPLETE, 0, vda, 0, 0, 0, "WS", 0);
        m.event(0, 800, TracepointSink.BlockPhase.RQ_COMPLETE, 0, vdb, 100, 8, 0, "R", 0);
        m.event(0, 900, TracepointSink.BlockPhase.RQ_COMPLETE, 0, vda, 555, 8, 0, "W", 0); // begun before the session
        m.event(0, 950, TracepointSink.BlockPhase.IO_START, 9, vda, 900, 8, 4096, "DS", 0);
        m.event(1, 960, TracepointSink.BlockPhase.RQ_COMPLETE, 0, vda, 900, 8, 0, "DS", 0);
        m.flush();
        assertEquals(5, done.size());
        assertEquals(8, done.get(0).issuingTid, "the first start completes first");
        assertEquals(100, done.get(0).responseNanos());
        assertEquals(7, done.get(1).issuingTid);
        assertEquals(14, done.get(2).etwType(), "the preflush: FlushBuffers");
        assertEquals(7, done.get(2).issuingTid);
        assertEquals(10, done.get(3).etwType());
        assertEquals(9, done.get(3).issuingTid, "keyed by device too");
        assertEquals(-1, done.get(4).etwType(), "a discard");
        assertEquals(1, m.unmatchedCompletions);
        assertEquals(5, started.size());
        assertEquals(0, m.inFlight());
    }

    @Test
    void taskTableAgainstAMap() {
        TaskTable t = new TaskTable();
        Map<Integer, Integer> ref = new HashMap<>();
        Random r = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            int tid = 1 + r.nextInt(3000);
            if (r.nextInt(3) == 0) {
                t.remove(tid);
                ref.remove(tid);
            } else {
                int pid = 1 + r.nextInt(50);
                t.add(tid, pid, true);
                ref.put(tid, pid);
            }
            if (i % 97 == 0) {
                for (int k = 1; k <= 3000; k++) {
                    assertEquals(ref.containsKey(k) ? ref.get(k) : -1, t.processOf(k), "tid " + k);
                }
            }
        }
        assertEquals(ref.size(), t.size());
        t.add(5000, 1, true);
        assertFalse(t.running(5000, false), "a new task switched out before it was in");
        assertTrue(t.running(5000, true));
        assertTrue(t.running(5000, false));
        t.add(5001, 1, false);
        assertTrue(t.running(5001, false), "a rundown thread may have been running when the collection began");
        assertFalse(t.running(5001, false));
    }

    @Test
    void flagsAndWhatTheyCollect() {
        KernelFlagPlan dispatcher = KernelFlagPlan.of(EnumSet.of(KernelFlag.DISPATCHER));
        assertTrue(dispatcher.readyThread);
        assertFalse(dispatcher.cswitch);
        assertTrue(dispatcher.collects());
        assertFalse(dispatcher.needsBlock());
        KernelFlagPlan cswitch = KernelFlagPlan.of(EnumSet.of(KernelFlag.CSWITCH));
        assertTrue(cswitch.readyThread, "ReadyThread comes with cswitch here: why needs both");
        String java17 = PerfCalls.missing(17, "amd64");
        KernelFlagPlan none = KernelFlagPlan.of(EnumSet.of(KernelFlag.PROFILE, KernelFlag.NO_SYSCONFIG), java17);
        assertFalse(none.collects());
        assertEquals(2, none.notices.size());
        assertEquals("kernel=profile: not recorded: needs Java 22+ (java.lang.foreign) for perf_event_open; this JVM is"
                + " Java 17", none.notices.get(0).text(), "the one notice names what is missing");
        assertEquals(SessionNotice.NOTE, none.notices.get(1).kind(), "no_sysconfig: nothing is missing");
        for (KernelFlag f : KernelFlag.values()) {
            assertEquals(KernelFlagPlan.unsupported(f) == null ? 0 : 1, KernelFlagPlan.of(EnumSet.of(f)).notices.size(),
                    "one notice per flag without an equivalent: " + f);
        }
    }

    @Test
    void profileAndHardFaultsAreCollectedWhereJava22PlusCanCallPerfEventOpen() {
        KernelFlagPlan perf = KernelFlagPlan.of(EnumSet.of(KernelFlag.PROFILE, KernelFlag.MEMORY_HARD_FAULTS,
                KernelFlag.MEMORY_PAGE_FAULTS), PerfCalls.missing(25, "amd64"));
        assertTrue(perf.profile && perf.hardFaults && perf.collects() && perf.needsPerf());
        assertEquals(1, perf.notices.size(), "memory_page_faults only: " + perf.notices);
        assertTrue(perf.notices.get(0).text().startsWith("kernel=memory_page_faults: not recorded on Linux"));
        KernelFlagPlan old = KernelFlagPlan.of(EnumSet.of(KernelFlag.PROFILE, KernelFlag.MEMORY_HARD_FAULTS),
                PerfCalls.missing(21, "amd64"));
        assertFalse(old.profile || old.hardFaults || old.collects());
        assertEquals(2, old.notices.size());
        assertEquals(298, PerfCalls.syscallNumber("amd64"));
        assertEquals(241, PerfCalls.syscallNumber("aarch64"));
        assertTrue(PerfCalls.missing(25, "riscv64").contains("x86_64 and aarch64 only"));
    }
}
