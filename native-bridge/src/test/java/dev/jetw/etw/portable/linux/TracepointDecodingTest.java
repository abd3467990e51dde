package dev.jetw.etw.portable.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Decoding without a kernel: the format files and ring-buffer pages of a real capture (test resources
 * tracefs/linux-6.18, see its README) decoded and compared, event by event, with the kernel's own text
 * rendering of the same events; and hand-made pages for the record kinds a short capture rarely holds
 * (time extends, absolute time stamps, discarded records, long records, loss flags with counts).
 */
class TracepointDecodingTest {

    static final String DIR = "/tracefs/linux-6.18/";

    static String text(String name) throws IOException {
        return new String(bytes(name), StandardCharsets.UTF_8);
    }

    static byte[] bytes(String name) throws IOException {
        try (InputStream in = TracepointDecodingTest.class.getResourceAsStream(DIR + name)) {
            if (in == null) {
                throw new IOException("no test resource " + DIR + name);
            }
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            byte[] b = new byte[8192];
            for (int n; (n = in.read(b)) > 0; ) {
                out.write(b, 0, n);
            }
            return out.toByteArray();
        }
    }

    static EventFormat format(String system, String name) throws IOException {
        return EventFormat.parse(system, text(system + "." + name + ".format"));
    }

    @Test
    void headerPageAndFormatsOfLinux618() throws IOException {
        HeaderPage small = HeaderPage.parse(text("header_page"));
        assertEquals(0, small.timestampOffset);
        assertEquals(8, small.commitOffset);
        assertEquals(8, small.commitSize);
        assertEquals(16, small.dataOffset);
        assertEquals(4096, small.pageSize());
        assertEquals(65536, HeaderPage.parse(text("header_page_64k")).pageSize());
        assertThrows(IOException.class, () -> HeaderPage.parse("field: u64 timestamp;\toffset:0;\tsize:8;"));

        EventFormat sw = format("sched", "sched_switch");
        assertEquals(372, sw.id);
        assertEquals(32, sw.field("prev_state").offset);
        assertEquals(8, sw.field("prev_state").size);
        assertTrue(sw.field("prev_state").signed);
        assertEquals("prev_comm", sw.field("prev_comm").name);
        assertEquals(16, sw.field("prev_comm").size);
        EventFormat io = format("block", "block_io_start");
        assertTrue(io.field("cmd").isDataLoc());
        assertEquals(-1, io.offsetOrMinus1("error"));
        assertTrue(format("sched", "sched_process_exit").fields.containsKey("group_dead"));

        PrevState codec = PrevState.fromPrintFmt(sw.printFmt);
        assertEquals(0x100, codec.preemptBit);
        assertEquals("S", codec.text(0x1));
        assertEquals("D", codec.text(0x2));
        assertEquals("R", codec.text(0));
        assertEquals("R+", codec.text(0x100));
        assertEquals('I', codec.letter(0x80));
        assertEquals('X', codec.letter(0x10));
    }

    /** The whole capture, decoded, equals the kernel's text of it: CPU, µs time, current task, and each event's fields. */
    @Test
    void capturedPagesDecodeAsTheKernelPrintsThem() throws IOException {
        List<String> decoded = new ArrayList<>();
        Rendering rendering = new Rendering(decoded, null);
        TracepointDecoder decoder = new TracepointDecoder(rendering);
        for (String f : new String[] {"sched.sched_switch", "sched.sched_waking", "sched.sched_wakeup_new",
                "task.task_newtask", "sched.sched_process_exit", "block.block_io_start", "block.block_rq_complete"}) {
            String[] sn = f.split("\\.");
            decoder.learn(format(sn[0], sn[1]));
        }
        rendering.codec = decoder.prevState();
        HeaderPage hp = HeaderPage.parse(text("header_page"));
        PageDecoder pages = new PageDecoder(hp);
        for (int cpu = 0; cpu < 2; cpu++) {
            byte[] all = bytes("cpu" + cpu + ".pages");
            for (int at = 0; at < all.length; at += hp.pageSize()) {
                ByteBuffer page = ByteBuffer.wrap(all, at, hp.pageSize()).slice().order(ByteOrder.LITTLE_ENDIAN);
                pages.decode(cpu, page, decoder);
            }
        }
        assertEquals(0, decoder.handlers.unknown);
        assertEquals(0, pages.lossPages);

        List<String> kernel = new ArrayList<>();
        Pattern line = Pattern.compile("^\\s*(.+)-(\\d+)\\s+\\[(\\d+)\\]\\s+\\S+\\s+(\\d+)\\.(\\d{6}): (\\w+): (.*)$");
        for (String l : text("trace.txt").split("\n")) {
            if (l.startsWith("#") || l.trim().isEmpty()) {
                continue;
            }
            Matcher m = line.matcher(l);
            assertTrue(m.matches(), l);
            kernel.add(String.format(Locale.ROOT, "cpu%d %s.%s cur %s %s %s", Integer.parseInt(m.group(3)), m.group(4),
                    m.group(5), m.group(2), m.group(6), fieldsOf(m.group(6), m.group(7))));
        }
        assertEquals(162, kernel.size());
        Collections.sort(kernel);
        Collections.sort(decoded);
        assertEquals(kernel, decoded);
    }

    /**
     * Asked for them, the decoder gives the names sched_switch carries (prev_comm, next_comm) of the threads the sink
     * wants (here every one but the idle task), as the kernel prints them; asked for none, it reads none.
     */
    @Test
    void switchesGiveTheNamesOfTheThreadsTheSinkAsksFor() throws IOException {
        Rendering rendering = new Rendering(new ArrayList<>(), null);
        rendering.names = new ArrayList<>();
        TracepointDecoder decoder = new TracepointDecoder(rendering);
        decoder.learn(format("sched", "sched_switch"));
        rendering.codec = decoder.prevState();
        HeaderPage hp = HeaderPage.parse(text("header_page"));
        PageDecoder pages = new PageDecoder(hp);
        for (int cpu = 0; cpu < 2; cpu++) {
            byte[] all = bytes("cpu" + cpu + ".pages");
            for (int at = 0; at < all.length; at += hp.pageSize()) {
                pages.decode(cpu, ByteBuffer.wrap(all, at, hp.pageSize()).slice().order(ByteOrder.LITTLE_ENDIAN), decoder);
            }
        }
        List<String> kernel = new ArrayList<>();
        for (String l : text("trace.txt").split("\n")) {
            int at = l.indexOf(" sched_switch: ");
            if (at < 0) {
                continue;
            }
            String f = l.substring(at + 15);
            for (String side : new String[] {"prev", "next"}) {
                if (!field(f, side + "_pid").equals("0")) {
                    kernel.add(field(f, side + "_pid") + "=" + field(f, side + "_comm"));
                }
            }
        }
        assertFalse(kernel.isEmpty());
        Collections.sort(kernel);
        Collections.sort(rendering.names);
        assertEquals(kernel, rendering.names);
    }

    /**
     * The sink is asked for the names of a switch's threads before it is told of the switch (which may make it forget
     * an exited thread at its final switch out), and given them after it.
     */
    @Test
    void namesAreAskedForBeforeTheSwitchAndGivenAfterIt() throws IOException {
        List<String> calls = new ArrayList<>();
        TracepointSink sink = new TracepointSink() {
            @Override
            public void contextSwitch(int cpu, long ts, int prevTid, int prevPrio, long prevState, int nextTid, int nextPrio) {
                calls.add("switch");
            }

            @Override
            public boolean wantsName(int tid) {
                calls.add("ask");
                return true;
            }

            @Override
            public void switchedThreadName(int cpu, long ts, int tid, String comm) {
                calls.add("name");
            }

            @Override
            public void wakeup(int cpu, long ts, WakeKind kind, int currentTid, int wakeeTid, int prio, int targetCpu,
                               int commonFlags) {
            }

            @Override
            public void taskNew(int cpu, long ts, int parentTid, int tid, String comm, long cloneFlags) {
            }

            @Override
            public void taskExit(int cpu, long ts, int tid, String comm, boolean groupDead) {
            }

            @Override
            public void taskRename(int cpu, long ts, int tid, String oldComm, String newComm) {
            }

            @Override
            public void block(int cpu, long ts, BlockPhase phase, int currentTid, int dev, long sector, int nrSector,
                              int bytes, String rwbs, int error) {
            }

            @Override
            public void lost(int cpu, long ts, long count) {
            }
        };
        TracepointDecoder decoder = new TracepointDecoder(sink);
        decoder.learn(format("sched", "sched_switch"));
        HeaderPage hp = HeaderPage.parse(text("header_page"));
        byte[] all = bytes("cpu0.pages");
        new PageDecoder(hp).decode(0, ByteBuffer.wrap(all, 0, hp.pageSize()).slice().order(ByteOrder.LITTLE_ENDIAN),
                decoder);
        assertTrue(calls.size() >= 5, "switches decoded: " + calls.size());
        assertEquals(Arrays.asList("ask", "ask", "switch", "name", "name"), calls.subList(0, 5));
    }

    /** The fields of the kernel's text that the decoder must reproduce, in the rendering's order. */
    private static String fieldsOf(String event, String text) {
        switch (event) {
            case "sched_switch":
                return "prev " + field(text, "prev_pid") + " " + field(text, "prev_state") + " next " + field(text, "next_pid");
            case "sched_waking":
            case "sched_wakeup_new":
                return "pid " + field(text, "pid") + " target " + Integer.parseInt(field(text, "target_cpu"));
            case "task_newtask":
                return "pid " + field(text, "pid") + " flags " + field(text, "clone_flags");
            case "sched_process_exit":
                return "pid " + field(text, "pid") + " dead " + field(text, "group_dead");
            default: // block: "254,0 RM 4096 () 19014792 + 8 ..." or "254,0 RM () 19014792 + 8 ..."
                String[] w = text.split(" ");
                int plus = java.util.Arrays.asList(w).indexOf("+");
                return w[0] + " " + w[1] + " " + w[plus - 1] + "+" + w[plus + 1];
        }
    }

    private static String field(String text, String name) {
        Matcher m = Pattern.compile("(?:^| )" + name + "=(\\S+)").matcher(text);
        assertTrue(m.find(), name + " in " + text);
        return m.group(1);
    }

    /** Renders each decoded event as the test renders the kernel's text (time rounded to µs as the kernel prints it). */
    static final class Rendering implements TracepointSink {
        final List<String> out;
        PrevState codec;
        final List<long[]> losses = new ArrayList<>();
        /** With names: every switched thread but the idle task is asked for by name, and its names go here. */
        List<String> names;

        Rendering(List<String> out, PrevState codec) {
            this.out = out;
            this.codec = codec;
        }

        private String head(int cpu, long ts, int current, String event) {
            long us = (ts + 500) / 1000;
            return String.format(Locale.ROOT, "cpu%d %d.%06d cur %d %s ", cpu, us / 1_000_000, us % 1_000_000, current, event);
        }

        @Override
        public void contextSwitch(int cpu, long ts, int prevTid, int prevPrio, long prevState, int nextTid, int nextPrio) {
            out.add(head(cpu, ts, prevTid, "sched_switch") + "prev " + prevTid + " " + codec.text(prevState) + " next " + nextTid);
        }

        @Override
        public boolean wantsName(int tid) {
            return names != null && tid > 0;
        }

        @Override
        public void switchedThreadName(int cpu, long ts, int tid, String comm) {
            names.add(tid + "=" + comm);
        }

        @Override
        public void wakeup(int cpu, long ts, WakeKind kind, int currentTid, int wakeeTid, int prio, int targetCpu,
                           int commonFlags) {
            out.add(head(cpu, ts, currentTid, kind == WakeKind.WAKING ? "sched_waking" : "sched_wakeup_new") + "pid "
                    + wakeeTid + " target " + targetCpu);
        }

        @Override
        public void taskNew(int cpu, long ts, int parentTid, int tid, String comm, long cloneFlags) {
            out.add(head(cpu, ts, parentTid, "task_newtask") + "pid " + tid + " flags " + Long.toHexString(cloneFlags));
        }

        @Override
        public void taskExit(int cpu, long ts, int tid, String comm, boolean groupDead) {
            out.add(head(cpu, ts, tid, "sched_process_exit") + "pid " + tid + " dead " + groupDead);
        }

        @Override
        public void taskRename(int cpu, long ts, int tid, String oldComm, String newComm) {
            out.add(head(cpu, ts, tid, "task_rename") + oldComm + " " + newComm);
        }

        @Override
        public void block(int cpu, long ts, BlockPhase phase, int currentTid, int dev, long sector, int nrSector, int bytes,
                          String rwbs, int error) {
            out.add(head(cpu, ts, currentTid, phase == BlockPhase.IO_START ? "block_io_start" : "block_rq_complete")
                    + (dev >>> 20) + "," + (dev & 0xFFFFF) + " " + rwbs + " " + Long.toUnsignedString(sector) + "+" + nrSector);
        }

        @Override
        public void lost(int cpu, long ts, long count) {
            losses.add(new long[] {cpu, ts, count});
        }
    }

    // ---- hand-made pages ----

    /** A 4 KiB page in 6.18's layout: u64 time stamp, u64 commit (length | loss flags), data from 16. */
    static final class PageBuilder {
        final ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
        int pos = 16;

        PageBuilder(long timestamp) {
            b.putLong(0, timestamp);
        }

        PageBuilder data(long delta, int... words) {
            b.putInt(pos, (int) (delta << 5) | words.length);
            pos += 4;
            for (int w : words) {
                b.putInt(pos, w);
                pos += 4;
            }
            return this;
        }

        /** type_len 0: the length word, then the payload. */
        PageBuilder longData(long delta, int... words) {
            b.putInt(pos, (int) (delta << 5));
            b.putInt(pos + 4, words.length * 4 + 4);
            pos += 8;
            for (int w : words) {
                b.putInt(pos, w);
                pos += 4;
            }
            return this;
        }

        PageBuilder extend(long delta) {
            b.putInt(pos, (int) ((delta & ((1 << 27) - 1)) << 5) | PageDecoder.TYPE_TIME_EXTEND);
            b.putInt(pos + 4, (int) (delta >>> 27));
            pos += 8;
            return this;
        }

        PageBuilder absolute(long ts) {
            b.putInt(pos, (int) ((ts & ((1 << 27) - 1)) << 5) | PageDecoder.TYPE_TIME_STAMP);
            b.putInt(pos + 4, (int) (ts >>> 27));
            pos += 8;
            return this;
        }

        /** A discarded record: padding with a non-zero delta and its length. */
        PageBuilder discarded(int payloadBytes) {
            b.putInt(pos, (7 << 5) | PageDecoder.TYPE_PADDING);
            b.putInt(pos + 4, payloadBytes + 4);
            pos += 8 + payloadBytes;
            return this;
        }

        ByteBuffer build(long lostCount) {
            long commit = pos - 16;
            if (lostCount != 0) {
                commit |= PageDecoder.MISSED_EVENTS;
                if (lostCount > 0) {
                    commit |= PageDecoder.MISSED_STORED;
                    b.putLong(pos, lostCount);
                }
            }
            b.putLong(8, commit);
            return b;
        }
    }

    @Test
    void handMadePageWithEveryRecordKind() {
        long t0 = 1_000_000_000L;
        long bigGap = 200_000_000L; // > 2^27 ns: needs a time extend
        ByteBuffer page = new PageBuilder(t0)
                .data(10, 1)
                .extend(bigGap)
                .data(5, 2)
                .discarded(12)
                .longData(3, 3, 33, 333)
                .absolute(5_000_000_000L)
                .data(0, 4)
                .build(1234);
        List<long[]> seen = new ArrayList<>();
        List<long[]> lost = new ArrayList<>();
        PageDecoder d = new PageDecoder(new HeaderPage(0, 8, 8, 16, 4080));
        int n = d.decode(1, page, new PageDecoder.RecordVisitor() {
            @Override
            public void record(int cpu, long timestamp, ByteBuffer p, int offset, int length) {
                seen.add(new long[] {timestamp, p.getInt(offset), length});
            }

            @Override
            public void lost(int cpu, long pageTimestamp, long count) {
                lost.add(new long[] {cpu, pageTimestamp, count});
            }
        });
        assertEquals(4, n);
        assertEquals(t0 + 10, seen.get(0)[0]);
        assertEquals(t0 + 10 + bigGap + 5, seen.get(1)[0]);
        assertEquals(t0 + 10 + bigGap + 5 + 3, seen.get(2)[0], "a discarded record's delta is not added");
        assertEquals(3, seen.get(2)[1]);
        assertEquals(12, seen.get(2)[2], "type_len 0: the length word minus itself");
        assertEquals(5_000_000_000L, seen.get(3)[0], "absolute time stamp");
        assertEquals(1, d.discarded);
        assertEquals(1, d.timeExtends);
        assertEquals(1, d.timeStamps);
        assertEquals(1, lost.size());
        assertEquals(1234, lost.get(0)[2]);
        assertEquals(t0, lost.get(0)[1]);

        ByteBuffer unknownCount = new PageBuilder(t0).data(1, 9).build(-1);
        lost.clear();
        new PageDecoder(new HeaderPage(0, 8, 8, 16, 4080)).decode(0, unknownCount, new PageDecoder.RecordVisitor() {
            @Override
            public void record(int cpu, long timestamp, ByteBuffer p, int offset, int length) {
            }

            @Override
            public void lost(int cpu, long pageTimestamp, long count) {
                lost.add(new long[] {count});
            }
        });
        assertEquals(-1, lost.get(0)[0], "flagged without a stored count");
    }

    @Test
    void aPageWhoseCommitPassesItsEndIsRefused() {
        ByteBuffer page = new PageBuilder(1).data(1, 1).build(0);
        page.putLong(8, 5000);
        assertThrows(IllegalStateException.class,
                () -> new PageDecoder(new HeaderPage(0, 8, 8, 16, 4080)).decode(0, page, null));
    }

    @Test
    void smallTextFormats() {
        assertEquals(2, CpuList.parse("0-1\n"));
        assertEquals(9, CpuList.parse("0,2-3,8"));
        assertEquals(0, CpuList.parse("x"));
        assertEquals(java.util.Arrays.asList(0, 2, 3, 8), CpuList.members("0,2-3,8\n"), "the online CPUs perf opens an event on");
        assertTrue(CpuList.members("x").isEmpty());
        assertEquals("/sys/kernel/my tracing", TracefsLocator.unescape("/sys/kernel/my\\040tracing"));
        InstanceName n = InstanceName.parse("jetw-123-4567-2-sched");
        assertEquals(123, n.pid);
        assertEquals(4567, n.startTime);
        assertEquals(2, n.session);
        assertEquals("sched", n.role);
        assertEquals("jetw-123-4567-2-sched", n.toString());
        assertEquals(null, InstanceName.parse("perf-123"));
        CpuStats s = CpuStats.parse("entries: 5\noverrun: 7\ncommit overrun: 1\nbytes: 300\noldest event ts:  4895.053975\n"
                + "now ts:  4899.1\ndropped events: 2\nread events: 90\n");
        assertEquals(5, s.entries);
        assertEquals(10, s.lost());
        assertEquals(90, s.read);
        assertFalse(LinuxKernelCollector.isLinux() && CpuList.possible() < 1);
    }

    @Test
    void withoutTheOnlineListPerfUsesThePossibleCpusThenProcStatNeverTheAffinityCount() {
        // Under taskset 2-3 the JVM sees 2 processors: 0..1 would name CPUs it may not even run on.
        CpuList.Online fromOnline = CpuList.online("0-3\n", "0-7\n", null, 2);
        assertEquals(java.util.Arrays.asList(0, 1, 2, 3), fromOnline.cpus);
        assertEquals(null, fromOnline.note);
        CpuList.Online fromPossible = CpuList.online(null, "0-3\n", null, 2);
        assertEquals(java.util.Arrays.asList(0, 1, 2, 3), fromPossible.cpus);
        assertTrue(fromPossible.note.contains("possible CPUs (0-3)"), fromPossible.note);
        CpuList.Online fromStat = CpuList.online(null, null, "cpu  1 2 3\ncpu0 1 2 3\ncpu2 4 5 6\ncpu3 1 1 1\nintr 5\n", 2);
        assertEquals(java.util.Arrays.asList(0, 2, 3), fromStat.cpus);
        assertTrue(fromStat.note.contains("/proc/stat"), fromStat.note);
        CpuList.Online last = CpuList.online(null, null, null, 2);
        assertEquals(java.util.Arrays.asList(0, 1), last.cpus);
        assertTrue(last.note.contains("affinity"), last.note);
    }

    @Test
    void theStopLineKeepsTheCpuFigureThatIsKnownWhenTheOtherIsNot() {
        // A perf poller that failed early left its CPU time unknown: tracefs's pollers' figure still shows.
        String perfUnknown = LinuxKernelCollector.cpuFigures(50_000_000L, -1, true, 7, 1.0);
        assertTrue(perfUnknown.contains("collector CPU 50 ms (5.0% of a core over 1.0 s) without the perf poller's,"
                + " unknown"), perfUnknown);
        String both = LinuxKernelCollector.cpuFigures(50_000_000L, 20_000_000L, true, 7, 1.0);
        assertTrue(both.contains("collector CPU 70 ms") && both.contains("perf poller 20 ms, 7 samples"), both);
        String tracefsUnknown = LinuxKernelCollector.cpuFigures(-1, 20_000_000L, true, 7, 1.0);
        assertTrue(tracefsUnknown.contains("collector CPU 20 ms") && tracefsUnknown.contains("without the tracefs"),
                tracefsUnknown);
        assertEquals("", LinuxKernelCollector.cpuFigures(-1, 0, false, 0, 1.0));
        assertEquals(", collector CPU 50 ms (5.0% of a core over 1.0 s)",
                LinuxKernelCollector.cpuFigures(50_000_000L, 0, false, 0, 1.0));
    }
}
