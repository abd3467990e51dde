package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.CpuHoldersApp;
import com.acme.app.KernelFileApp;
import com.acme.app.KernelProfileApp;
import com.acme.app.KernelWhyApp;
import dev.jetw.analysis.cli.EtlTool;
import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.EventType;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.portable.linux.KernelTests;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jetw etl why} on a trace with the Linux kernel's evidence (portable backend, {@code
 * kernel=process,thread,cswitch,disk_io}) of a child JVM whose calls are slow for known reasons (KernelWhyApp):
 * a sleep is waiting, a lone spin is on a CPU, more busy threads than cores wait for a CPU, a blocked monitor
 * is waiting, a write + fsync on a real disk is disk I/O of the calling thread; and the sleep's START and END
 * bracket its switch out and its wake-up on the one clock. Needs root and tracefs (KernelTests: skipped with
 * the reason elsewhere). The figures each run measured are printed (the test's output file).
 */
class KernelWhyIT {

    static final String APP = KernelWhyApp.class.getName();
    /** Kernel and Java times share one clock: within 0.3 µs (DESIGN measurements); the file's ticks are 100 ns. */
    static final long CLOCK_TOLERANCE_TICKS = 10;

    @TempDir
    Path temp;

    /** A call's breakdown as why prints it: row name to ms, and the detail text of each row. */
    record Call(String method, String thread, double wall, Map<String, Double> ms, Map<String, String> detail) {
        double sum(String prefix) {
            double s = 0;
            for (Map.Entry<String, Double> e : ms.entrySet()) {
                if (e.getKey().startsWith(prefix)) {
                    s += e.getValue();
                }
            }
            return s;
        }

        double pct(String prefix) {
            return 100 * sum(prefix) / wall;
        }

        String figures() {
            return String.format(Locale.ROOT, "%s %.1f ms: on CPU %.1f%%, ready %.1f%%, waiting %.1f%%, unknown %.1f%%",
                    method, wall, pct("on CPU"), pct("ready"), pct("waiting"), pct("unknown"));
        }
    }

    @Test
    void eachCallsTimeGoesWhereItsCauseSays() throws Exception {
        KernelTests.require("KernelWhyIT.eachCallsTimeGoesWhereItsCauseSays");
        Path data = realDiskFolder();
        Path etl = temp.resolve("kernel-why.etl");
        String options = "include=" + APP + ",exclude=" + APP + "#main;" + APP + "#contend;" + APP + "#crowd,backend=portable,"
                + "kernel=process,thread,cswitch,disk_io,file=" + etl;
        ChildJvm child = ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=" + options), ChildJvm.appClassPath(),
                KernelWhyApp.class, data.toString());
        assertEquals(0, child.waitForExit(), child.toString());
        assertTrue(child.stdout().contains("done"), child.toString());
        assertFalse(child.stderr().contains("no kernel events"), child.toString());
        assertTrue(child.stderr().contains("kernel events: "), "the stop line counts the kernel's events: " + child);

        String out = run("why", "--slowest", "40", etl.toString());
        List<Call> calls = calls(out);
        List<String> figures = new ArrayList<>();
        for (Call c : calls) {
            figures.add(c.figures());
            assertEquals(c.wall(), c.sum("on CPU") + c.sum("ready") + c.sum("waiting") + c.sum("unknown")
                    + c.sum("terminated") + c.sum("off CPU"), 0.01 + c.ms().size() * 0.0015, "states add up: " + out);
        }
        Call sleep = one(calls, "sleepRequest", out);
        Call spin = one(calls, "spinRequest", out);
        Call lock = one(calls, "lockRequest", out);
        Call fsync = one(calls, "fsyncRequest", out);
        List<Call> crowd = all(calls, "crowdRequest");
        double crowdReady = 0;
        for (Call c : crowd) {
            crowdReady += c.pct("ready") / crowd.size();
        }
        System.out.println("KernelWhyIT measured: " + String.join("; ", figures) + String.format(Locale.ROOT,
                "; crowdRequest ready on average %.1f%% over %d calls; fsyncRequest disk I/O %s ms, %s", crowdReady,
                crowd.size(), fsync.ms().get("disk I/O issued by the thread"), fsync.detail().get("disk I/O issued by the thread")));
        assertTrue(sleep.pct("waiting") >= 70, sleep.figures() + "\n" + out);
        assertTrue(lock.pct("waiting") >= 60, lock.figures() + "\n" + out);
        assertEquals(4 * Runtime.getRuntime().availableProcessors(), crowd.size(), out);
        assertTrue(crowdReady >= 30, "more busy threads than cores: each waits for a CPU much of the time, " + crowdReady
                + "\n" + out);
        // Ground truth for the CPU-bound calls: the CPU time each thread's own clock measured, which the kernel's
        // switches must reproduce whatever else the (shared) machine runs.
        Map<String, Double> cpuMs = new LinkedHashMap<>();
        for (String line : child.stdout().split("\n")) {
            String[] w = line.split(" ");
            if (w.length == 4 && w[0].equals("cpu")) {
                cpuMs.put(w[1] + "@" + w[2], Long.parseLong(w[3]) / 1e6);
            }
        }
        for (Call c : crowd) {
            assertOnCpuMatches(c, cpuMs.get("crowdRequest@" + c.thread()), out);
        }
        double spinShare = assertOnCpuMatches(spin, cpuMs.get("spinRequest@main"), out);
        if (spinShare >= 80) {
            assertTrue(spin.pct("on CPU") >= 70, spin.figures() + "\n" + out);
        } else {
            System.out.printf(Locale.ROOT, "KernelWhyIT: the lone spin got only %.1f%% of a CPU by its own clock (the machine"
                    + " was busy): its 70%% on-CPU bound is not checked this run; why matched that clock%n", spinShare);
        }
        assertNotNull(fsync.ms().get("disk I/O issued by the thread"), out);
        assertTrue(fsync.ms().get("disk I/O issued by the thread") > 0, out);
        Matcher bytes = Pattern.compile("(\\d+) requests?, (\\d+) bytes").matcher(fsync.detail().get("disk I/O issued by the thread"));
        assertTrue(bytes.find(), out);
        assertTrue(Long.parseLong(bytes.group(2)) >= 4L << 20, "the 4 MiB written, issued by the calling thread: " + out);

        sleepBracketsItsSwitches(etl);

        String summary = run("summary", etl.toString());
        assertTrue(summary.contains("Thread/CSwitch") && summary.contains("DiskIo/Write"), summary);
    }

    /**
     * why's on-CPU time of {@code c} equals the CPU time its thread's own clock measured, within 10 % of the wall
     * time and 3 ms: a switch in the kernel did not record (docs/linux-kernel-events.md) costs up to the time to the
     * next switch out (counted as on CPU since the wake-up or preemption) or to the call's end (counted as ready:
     * 23 ms of a 400 ms spin in one run); returns that measured share of the wall time, in %.
     */
    private static double assertOnCpuMatches(Call c, Double measuredMs, String out) {
        assertNotNull(measuredMs, "the app's CPU time of " + c.method() + " on " + c.thread());
        double onCpu = c.sum("on CPU");
        System.out.printf(Locale.ROOT, "KernelWhyIT %s on %s: on CPU %.1f ms by the kernel's switches, %.1f ms by the"
                + " thread's CPU clock, wall %.1f ms%n", c.method(), c.thread(), onCpu, measuredMs, c.wall());
        assertEquals(measuredMs, onCpu, 0.10 * c.wall() + 3, c.figures() + "\n" + out);
        return 100 * measuredMs / c.wall();
    }

    /** The sleep's START comes before its switch out, its END after its wake-up, within the clocks' tolerance. */
    private void sleepBracketsItsSwitches(Path etl) throws Exception {
        TraceFile trace = TraceFile.read(etl);
        int sleepId = trace.methodId(APP, "sleepRequest");
        TraceFile.Call start = null;
        TraceFile.Call end = null;
        for (TraceFile.Call c : trace.calls) {
            if (c.methodId() == sleepId && c.type() == EventType.START) {
                start = c;
            } else if (c.methodId() == sleepId && c.type() == EventType.END) {
                end = c;
            }
        }
        assertNotNull(start);
        assertNotNull(end);
        Long os = trace.osThreadIds.get((long) start.threadId());
        assertNotNull(os, "the Thread rundown gives main's OS thread id: " + trace.osThreadIds);
        long out = -1;
        long in = -1;
        try (EtlReader r = EtlReader.open(etl)) {
            for (EtlRecord rec; (rec = r.next()) != null; ) {
                if (rec.group() != 0x05 || (rec.type() != 36 && rec.type() != 50)) {
                    continue;
                }
                ByteBuffer p = ByteBuffer.wrap(rec.userData()).order(ByteOrder.LITTLE_ENDIAN);
                long t = rec.rawTimestamp();
                if (t < start.timestamp() - CLOCK_TOLERANCE_TICKS || t > end.timestamp() + CLOCK_TOLERANCE_TICKS) {
                    continue;
                }
                if (rec.type() == 36 && p.getInt(4) == os && p.get(14) == 5 && (out < 0 || t < out)) {
                    out = t;
                }
                if ((rec.type() == 36 && p.getInt(0) == os) || (rec.type() == 50 && p.getInt(0) == os)) {
                    in = Math.max(in, t);
                }
            }
        }
        assertTrue(out > 0, "the sleep's switch out lies inside START..END");
        assertTrue(in > out + 2_900_000, "its wake-up (readied or switched in) 290 ms later, before the END");
        System.out.printf(Locale.ROOT, "KernelWhyIT clock: START -> switch out %.1f us, wake-up -> END %.1f us"
                + " (tolerance %d ticks of 100 ns)%n", (out - start.timestamp()) / 10.0, (end.timestamp() - in) / 10.0,
                CLOCK_TOLERANCE_TICKS);
    }

    /**
     * kernel=process,thread,cswitch with busy shell loops competing with a traced spin: the spinning calls wait for
     * a CPU, and why's "CPUs while ready" names the loops' process ("sh", by the collector's names of the other
     * processes' threads met in a switch) among those that held the CPUs, with its time; the holders' time, idle and
     * the unrecorded and unknown time add up to ready time x CPUs (JSON, 4 decimals). The JVM and one loop are
     * pinned to CPU 0 (taskset, where there is one: else two loops per CPU, unpinned), so that the loop takes the
     * spin's CPU straight from it and gives it back, whatever else the machine runs: unpinned on a machine busy with
     * other builds, most switches were between untraced threads (not recorded) and the loops held only 1.9 ms of
     * 195 ms of ready time; with two loops pinned, their switches between each other were not recorded either
     * (24.4 ms over the 3 calls). The loops are ended whatever happens.
     */
    @Test
    void whoHeldTheCpusWhileACallWasReadyNamesTheOtherProcess() throws Exception {
        KernelTests.require("KernelWhyIT.whoHeldTheCpusWhileACallWasReadyNamesTheOtherProcess");
        Path taskset = Paths.get("/usr/bin/taskset");
        boolean pin = Files.isExecutable(taskset);
        List<String> prefix = pin ? List.of(taskset.toString(), "-c", "0") : List.of();
        List<Process> loops = new ArrayList<>();
        Path etl = temp.resolve("cpu-holders.etl");
        try {
            for (int i = 0; i < (pin ? 1 : 2 * Runtime.getRuntime().availableProcessors()); i++) {
                List<String> loop = new ArrayList<>(prefix);
                loop.addAll(List.of("sh", "-c", "while :; do :; done"));
                loops.add(new ProcessBuilder(loop).start());
            }
            Thread.sleep(200); // the loops are on the CPUs before the JVM starts
            String app = CpuHoldersApp.class.getName();
            List<String> command = new ArrayList<>(prefix);
            command.addAll(List.of(ChildJvm.java().toString(), "-javaagent:" + ChildJvm.agentJar() + "=include=" + app
                    + ",exclude=" + app + "#main,backend=portable,kernel=process,thread,cswitch,file=" + etl, "-cp"));
            List<String> classPath = new ArrayList<>();
            for (Path entry : ChildJvm.appClassPath()) {
                classPath.add(entry.toString());
            }
            command.add(String.join(java.io.File.pathSeparator, classPath));
            command.add(app);
            ChildJvm.Result r = ChildJvm.run(command);
            assertEquals(0, r.exit(), r.toString());
            assertTrue(r.stdout().contains("done"), r.toString());
        } finally {
            for (Process p : loops) {
                p.destroyForcibly();
            }
            for (Process p : loops) {
                p.waitFor();
            }
        }
        String text = run("why", etl.toString());
        String json = run("why", "--json", etl.toString());
        List<Call> calls = calls(text, CpuHoldersApp.class.getName());
        assertEquals(3, calls.size(), text);
        List<String> rows = new ArrayList<>();
        for (String l : text.split("\n")) {
            if (l.startsWith("  CPUs while ready")) {
                rows.add(l);
                System.out.println("KernelWhyIT CPUs while ready: " + l.replaceFirst("^ +CPUs while ready \\S+ of the ready time\\) +- +- +", ""));
            }
        }
        assertFalse(rows.isEmpty(), "the calls waited for a CPU behind the loops: " + text);
        Matcher sh = Pattern.compile("\\{\"processId\":(\\d+),\"name\":\"sh\",\"threads\":(\\d+),\"ms\":([0-9.]+)").matcher(json);
        double shMs = 0;
        while (sh.find()) {
            shMs += Double.parseDouble(sh.group(3));
        }
        System.out.printf(Locale.ROOT, "KernelWhyIT CPUs while ready: the loops (\"sh\"%s) held %.1f ms in all over the 3"
                + " calls%n", pin ? ", one, pinned with the JVM to CPU 0" : "", shMs);
        assertTrue(shMs > 0, "the loops' process is named and held CPUs while the calls were ready: " + json);
        Matcher block = Pattern.compile("\"cpusWhileReady\":\\{\"readyMs\":([0-9.]+),\"cpus\":\\[([0-9,]*)\\],\"cpuMs\":([0-9.]+),"
                + "\"threads\":\\[(.*?)\\],\"moreThreads\":\\d+,\"moreThreadsMs\":([0-9.]+),\"moreThreadsAtMost\":(?:true|false),"
                + "\"idleMs\":([0-9.]+),\"idleAtMost\":true,"
                + "\"unknownMs\":\\{\"beforeFirstSwitch\":([0-9.]+),\"notRecorded\":([0-9.]+)\\}").matcher(json);
        int blocks = 0;
        while (block.find()) {
            blocks++;
            double sum = Double.parseDouble(block.group(5)) + Double.parseDouble(block.group(6))
                    + Double.parseDouble(block.group(7)) + Double.parseDouble(block.group(8));
            Matcher ms = Pattern.compile("\"ms\":([0-9.]+)").matcher(block.group(4));
            while (ms.find()) {
                sum += Double.parseDouble(ms.group(1));
            }
            double cpuMs = Double.parseDouble(block.group(3));
            assertEquals(Double.parseDouble(block.group(1)) * block.group(2).split(",").length, cpuMs, 0.001, json);
            assertEquals(cpuMs, sum, 0.0001 * 14, "threads + idle + not recorded + unknown = ready x CPUs: " + json);
        }
        assertTrue(blocks >= 1, json);
        // The portable backend's file: its switches are the traced JVM's only, so idle and the loops' time are upper bounds.
        assertTrue(json.contains("\"switchesOfTracedThreadsOnly\":true"), json);
        assertFalse(json.contains("\"switchesOfTracedThreadsOnly\":false"), json);
        Matcher shAtMost = Pattern.compile("\\{\"processId\":\\d+,\"name\":\"sh\",\"threads\":\\d+,\"ms\":[0-9.]+,\"shareOfReady\":[0-9.]+,"
                + "\"atMost\":(true|false)").matcher(json);
        while (shAtMost.find()) {
            assertEquals("true", shAtMost.group(1), "another process's time is at most: " + json);
        }
    }

    /**
     * kernel=file_io,file_io_init: a call that reads a file, writes it back and fsyncs it shows, in why, its file
     * I/O naming that file, with the bytes the calls moved (the file's size each way) and the one flush.
     */
    @Test
    void aCallsFileIoNamesTheFileItWaitedOn() throws Exception {
        KernelTests.require("KernelWhyIT.aCallsFileIoNamesTheFileItWaitedOn");
        String app = KernelFileApp.class.getName();
        Path etl = temp.resolve("kernel-file.etl");
        ChildJvm child = runTracedApp(KernelFileApp.class, "file_io,file_io_init", etl);
        assertFalse(child.stderr().contains("kernel=file_io"), "file_io is honoured: no notice: " + child);
        String file = null;
        for (String l : child.stdout().split("\n")) {
            if (l.startsWith("file ")) {
                file = l.substring(5).trim();
            }
        }
        assertNotNull(file, child.toString());

        String out = run("why", etl.toString());
        Call call = one(calls(out, app), "fileRequest", out);
        String row = "file I/O by the thread";
        String detail = call.detail().get(row);
        System.out.println("KernelWhyIT file I/O: " + call.method() + " " + call.wall() + " ms: " + call.ms().get(row)
                + " ms in file I/O: " + detail);
        assertNotNull(detail, out);
        Matcher m = Pattern.compile("(\\d+) reads? (\\d+) bytes, (\\d+) writes? (\\d+) bytes, 1 flush; most waited on (.+) \\(")
                .matcher(detail);
        assertTrue(m.find(), detail);
        assertEquals(KernelFileApp.SIZE, Long.parseLong(m.group(2)), "the bytes read: the file's size: " + detail);
        assertEquals(KernelFileApp.SIZE, Long.parseLong(m.group(4)), "the bytes written back: " + detail);
        assertEquals(file, m.group(5), "the file the call waited on, by name: " + detail);
        assertTrue(call.ms().get(row) > 0 && call.ms().get(row) <= call.wall(), out);
        String summary = run("summary", etl.toString());
        assertTrue(summary.contains("FileIo/Read") && summary.contains("FileIo/Flush") && summary.contains("FileIo/OperationEnd"),
                summary);
    }

    /**
     * kernel=profile,memory_hard_faults (perf events through java.lang.foreign, Java 22+): a call that spins on the CPU
     * shows as many CPU samples as its thread's CPU clock has milliseconds (1 kHz), a sleeping call about none, and a
     * call that reads a file mapped into memory after its pages left the page cache shows hard faults. Skipped with
     * the reason where there is no root, tracefs, perf_event_open or Java 22+ (KernelTests.requirePerf).
     */
    @Test
    void samplesFollowTheCpuAndFaultsTheFileReadThroughMemory() throws Exception {
        KernelTests.requirePerf("KernelWhyIT.samplesFollowTheCpuAndFaultsTheFileReadThroughMemory");
        String app = KernelProfileApp.class.getName();
        Path etl = temp.resolve("kernel-perf.etl");
        ChildJvm child = runTracedApp(KernelProfileApp.class, "profile,memory_hard_faults", etl);
        assertTrue(child.stdout().contains("dropped 0"), "dd iflag=nocache dropped the file's pages: " + child);
        assertFalse(child.stderr().contains("kernel=profile") || child.stderr().contains("memory_hard_faults"),
                "both flags are honoured: no notice: " + child);
        double spinCpuMs = 0;
        for (String line : child.stdout().split("\n")) {
            if (line.startsWith("cpu spinRequest ")) {
                spinCpuMs = Long.parseLong(line.substring(16).trim()) / 1e6;
            }
        }
        String out = run("why", etl.toString());
        List<Call> calls = calls(out, app);
        long spinSamples = samples(out, "spinRequest");
        long sleepSamples = samples(out, "sleepRequest");
        Call fault = one(calls, "faultRequest", out);
        String faults = fault.detail().get("hard page faults");
        System.out.printf(Locale.ROOT, "KernelWhyIT perf: spinRequest %d samples for %.1f ms on CPU by its clock (wall"
                + " %.1f ms); sleepRequest %d samples; faultRequest %s%n", spinSamples, spinCpuMs,
                one(calls, "spinRequest", out).wall(), sleepSamples, faults);
        // 1 kHz per CPU: one sample per ms the thread ran, give or take the ticks at either end and the timer's jitter.
        assertEquals(spinCpuMs, spinSamples, 0.10 * spinCpuMs + 5, "samples = ms on CPU: " + out);
        if (spinCpuMs >= 240) {
            assertTrue(spinSamples >= 216, "a 300 ms spin that had the CPU: about 300 samples: " + out);
        }
        assertTrue(sleepSamples <= 3, "a sleeping call is not on a CPU: " + out);
        assertNotNull(faults, "why shows the hard faults row: " + out);
        Matcher m = Pattern.compile("(\\d+) faults?, (\\d+) bytes").matcher(faults);
        assertTrue(m.find() && Long.parseLong(m.group(1)) >= 1, "the mapped file was read through hard faults: " + out);
        String summary = run("summary", etl.toString());
        assertTrue(summary.contains("PerfInfo/SampledProfile") && summary.contains("PageFault/HardFault"), summary);
    }

    /**
     * Runs {@code app} (its methods traced but main) in a child JVM with the portable backend and {@code kernel=FLAGS}
     * into {@code etl}, with a folder on a real disk as its argument; it must exit 0 after printing "done".
     */
    private ChildJvm runTracedApp(Class<?> app, String flags, Path etl) throws Exception {
        String name = app.getName();
        String options = "include=" + name + ",exclude=" + name + "#main,backend=portable,kernel=" + flags + ",file=" + etl;
        ChildJvm child = ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=" + options), ChildJvm.appClassPath(),
                app, realDiskFolder().toString());
        assertEquals(0, child.waitForExit(), child.toString());
        assertTrue(child.stdout().contains("done"), child.toString());
        return child;
    }

    /** The "CPU samples" row of {@code method}'s call: "N samples of the thread". */
    private static long samples(String out, String method) {
        boolean in = false;
        for (String line : out.split("\n")) {
            if (line.startsWith("#")) {
                in = line.contains("." + method + "(");
            } else if (in && line.trim().startsWith("CPU samples")) {
                Matcher m = Pattern.compile("(\\d+) samples? of the thread").matcher(line);
                assertTrue(m.find(), line);
                return Long.parseLong(m.group(1));
            }
        }
        throw new AssertionError("no CPU samples row for " + method + ": " + out);
    }

    /** Without tracefs the session starts with jetw's events; one line says why; the trace carries it as a problem. */
    @Test
    void withoutTracefsTheSessionRunsOnAndTheTraceSaysWhy() throws Exception {
        Assumptions.assumeTrue(System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux"),
                "kernel= is collected on Linux only");
        Path etl = temp.resolve("no-tracefs.etl");
        Path none = temp.resolve("no-tracefs");
        String options = "include=" + APP + ",exclude=" + APP + "#main;" + APP + "#contend;" + APP + "#crowd;" + APP
                + "#crowdRequest;" + APP + "#spinRequest,backend=portable,kernel=cswitch+memory_page_faults,file=" + etl;
        ChildJvm child = ChildJvm.start(List.of("-Djetw.tracefs=" + none, "-javaagent:" + ChildJvm.agentJar() + "=" + options),
                ChildJvm.appClassPath(), KernelWhyApp.class, temp.toString());
        assertEquals(0, child.waitForExit(), child.toString());
        List<String> lines = new ArrayList<>();
        for (String l : child.stderrLines()) {
            if (l.contains("kernel=")) {
                lines.add(l);
            }
        }
        assertEquals(2, lines.size(), "one line per flag it cannot honour, one for what is missing: " + child);
        assertTrue(lines.get(0).contains("kernel=memory_page_faults: not recorded on Linux"), lines.toString());
        assertTrue(lines.get(1).contains("kernel=cswitch+memory_page_faults: no kernel events: jetw.tracefs=" + none
                + " is not a tracefs root"), lines.toString());
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        int status = EtlTool.run(new String[] {"summary", etl.toString()}, new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        String summary = o.toString(StandardCharsets.UTF_8);
        assertTrue(summary.contains("session: kernel=cswitch+memory_page_faults: no kernel events"), summary);
        assertTrue(summary.contains("session: kernel=memory_page_faults: not recorded"), summary);
        assertTrue(status != EtlTool.OK, "a problem makes the summary's status say so: " + status);
        String why = run("why", etl.toString());
        assertTrue(why.contains("note: no kernel events in this trace"), why);
        assertTrue(TraceFile.read(etl).count(EventType.START, TraceFile.read(etl).methodId(APP, "sleepRequest")) == 1,
                "jetw's events are there");
    }

    /** Run as another user than root, the collector cannot use tracefs: the one line says so and how to grant it. */
    @Test
    void asAnotherUserTheLineSaysTracefsIsRootOnly() throws Exception {
        KernelTests.require("KernelWhyIT.asAnotherUserTheLineSaysTracefsIsRootOnly");
        Path setpriv = Paths.get("/usr/bin/setpriv");
        if (!Files.isExecutable(setpriv)) {
            System.out.println("jetw kernel test: KernelWhyIT.asAnotherUserTheLineSaysTracefsIsRootOnly: no setpriv"
                    + " to run the child as another user");
            Assumptions.assumeTrue(false, "no /usr/bin/setpriv to run the child as another user");
        }
        Path dir = temp.resolve("nobody");
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(temp, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        Path etl = dir.resolve("nobody.etl");
        String options = "include=" + APP + ",exclude=" + APP + "#main;" + APP + "#contend;" + APP + "#crowd;" + APP
                + "#crowdRequest;" + APP + "#spinRequest,backend=portable,kernel=process,thread,cswitch,disk_io,file=" + etl;
        // The checkout may sit in a folder only root can read (a clone under mktemp -d): the other user gets
        // copies of the agent jar and the application's classes in a folder root owns and everyone may read.
        Path readable = temp.resolve("readable");
        List<String> classPath = new ArrayList<>();
        for (Path entry : ChildJvm.appClassPath()) {
            classPath.add(readableCopy(entry, readable.resolve("cp" + classPath.size())).toString());
        }
        Path agentJar = readableCopy(ChildJvm.agentJar(), readable.resolve("agent"));
        List<String> command = new ArrayList<>(List.of(setpriv.toString(), "--reuid=65534", "--regid=65534",
                "--clear-groups", ChildJvm.java().toString(), "-javaagent:" + agentJar + "=" + options, "-cp"));
        command.add(String.join(java.io.File.pathSeparator, classPath));
        command.add(APP);
        command.add(dir.toString());
        ChildJvm.Result r = ChildJvm.run(command);
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.stderr().contains("kernel=process+thread+cswitch+disk_io: no kernel events: tracefs is root-only"
                + " (mode 700) and this JVM runs as uid 65534: run it as root (sudo)"), r.toString());
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        EtlTool.run(new String[] {"summary", etl.toString()}, new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertTrue(o.toString(StandardCharsets.UTF_8).contains("session: kernel=process+thread+cswitch+disk_io: no kernel"
                + " events: tracefs is root-only"), o.toString(StandardCharsets.UTF_8));
    }

    /** A copy of {@code source} (a jar or a class folder) in {@code folder}: folders 755, files 644, owned by this user. */
    private static Path readableCopy(Path source, Path folder) throws java.io.IOException {
        java.nio.file.attribute.FileAttribute<?> open =
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(folder, open);
        Files.setPosixFilePermissions(folder, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(folder.getParent(), java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path target = folder.resolve(source.getFileName());
        try (java.util.stream.Stream<Path> all = Files.walk(source)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path to = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                    Files.setPosixFilePermissions(to, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
                } else {
                    Files.copy(p, to);
                    Files.setPosixFilePermissions(to, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
                }
            }
        }
        return target;
    }

    /** A folder on a real disk (not tmpfs) for the fsync: the temp folder, or one under target/. */
    private Path realDiskFolder() throws Exception {
        FileStore store = Files.getFileStore(temp);
        if (!store.type().equals("tmpfs")) {
            return temp;
        }
        Path dir = Paths.get("target", "kernel-why-data").toAbsolutePath();
        Files.createDirectories(dir);
        assertFalse(Files.getFileStore(dir).type().equals("tmpfs"), "no folder on a real disk for the fsync");
        return dir;
    }

    private static String run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = EtlTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, text + err.toString(StandardCharsets.UTF_8));
        return text;
    }

    private static Call one(List<Call> calls, String method, String out) {
        List<Call> found = all(calls, method);
        assertEquals(1, found.size(), method + ": " + out);
        return found.get(0);
    }

    private static List<Call> all(List<Call> calls, String method) {
        List<Call> found = new ArrayList<>();
        for (Call c : calls) {
            if (c.method().equals(method)) {
                found.add(c);
            }
        }
        return found;
    }

    /** The calls of why's text: "#N WALL ms  CLASS.METHOD(DESC)  ...", then "  ROW  MS  PCT%  DETAIL" lines. */
    static List<Call> calls(String out) {
        return calls(out, APP);
    }

    /** The calls of {@code app}'s methods in why's text. */
    static List<Call> calls(String out, String app) {
        List<Call> calls = new ArrayList<>();
        Pattern head = Pattern.compile("^#\\d+ ([0-9.]+) ms  " + Pattern.quote(app) + "\\.(\\w+)\\(.*thread \\d+ \"([^\"]*)\".*$");
        Pattern row = Pattern.compile("^  (.{44}) +([0-9.]+|-) +([0-9.]+%|-)(?:  (.*))?$");
        Call current = null;
        for (String line : out.split("\n")) {
            Matcher h = head.matcher(line);
            if (h.matches()) {
                current = new Call(h.group(2), h.group(3), Double.parseDouble(h.group(1)), new LinkedHashMap<>(),
                        new LinkedHashMap<>());
                calls.add(current);
                continue;
            }
            Matcher r = row.matcher(line);
            if (current != null && r.matches() && !r.group(2).equals("-")) {
                String name = r.group(1).trim();
                current.ms().put(name, Double.parseDouble(r.group(2)));
                current.detail().put(name, r.group(4) == null ? "" : r.group(4));
            }
        }
        return calls;
    }
}
