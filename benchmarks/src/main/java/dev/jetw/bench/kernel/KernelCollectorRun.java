package dev.jetw.bench.kernel;

import dev.jetw.etw.KernelFlag;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import dev.jetw.etw.portable.PortableBackend;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * What the Linux kernel collector sustains (BENCHMARKS.md §14): a worst case for it, pairs of threads handing a
 * token over with park/unpark as fast as they can (each hand-over is a wake-up and two context switches), in a
 * child JVM without a session, then in one with a portable session collecting
 * {@code kernel=process,thread,cswitch} (no agent: the collector alone). Each run prints the hand-overs per
 * second; a kernel run also the collector's line (records, losses, its CPU). Runs alternate, paired. Linux,
 * as root (tracefs).
 *
 * <pre>java -Dpairs=3 -Dseconds=5 -cp benchmarks/target/benchmarks.jar dev.jetw.bench.kernel.KernelCollectorRun</pre>
 */
public final class KernelCollectorRun {

    private KernelCollectorRun() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("child")) {
            child(args[1].equals("kernel"), Integer.parseInt(args[2]), args.length > 3 ? Paths.get(args[3]) : null);
            return;
        }
        int pairs = Integer.getInteger("pairs", 3);
        int seconds = Integer.getInteger("seconds", 5);
        Path dir = Files.createTempDirectory("jetw-kernel-bench");
        List<Double> without = new ArrayList<>();
        List<Double> with = new ArrayList<>();
        for (int p = 0; p < pairs; p++) {
            without.add(run("none", seconds, null));
            with.add(run("kernel", seconds, dir.resolve("k" + p + ".etl")));
        }
        double[] ratios = new double[pairs];
        for (int i = 0; i < pairs; i++) {
            ratios[i] = with.get(i) / without.get(i);
        }
        System.out.printf(Locale.ROOT, "hand-overs/s without a session: %s%nhand-overs/s with kernel=process,thread,cswitch:"
                + " %s%nthroughput with/without, paired: %s%n", without, with,
                dev.jetw.bench.real.RealWorkloadRun.meanAndInterval(ratios));
    }

    private static double run(String mode, int seconds, Path file) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(KernelCollectorRun.class.getName());
        cmd.add("child");
        cmd.add(mode);
        cmd.add(Integer.toString(seconds));
        if (file != null) {
            cmd.add(file.toString());
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        double rate = -1;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                System.out.println(mode + ": " + line);
                if (line.startsWith("hand-overs/s ")) {
                    rate = Double.parseDouble(line.substring("hand-overs/s ".length()));
                }
            }
        }
        if (p.waitFor() != 0 || rate < 0) {
            throw new IllegalStateException(mode + " run failed");
        }
        if (file != null) {
            Files.deleteIfExists(file);
        }
        return rate;
    }

    private static void child(boolean kernel, int seconds, Path file) throws Exception {
        PortableBackend etw = new PortableBackend();
        String name = "kernel-bench";
        if (kernel) {
            etw.startSession(SessionConfig.builder().sessionName(name).logFile(file)
                    .modes(EnumSet.of(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER))
                    .kernelFlags(EnumSet.of(KernelFlag.PROCESS, KernelFlag.THREAD, KernelFlag.CSWITCH)).build());
        }
        long handovers = pingPong(2, seconds * 1000L);
        System.out.printf(Locale.ROOT, "hand-overs/s %.0f%n", handovers / (double) seconds);
        if (kernel) {
            SessionStats s = etw.stopSession(name);
            System.out.println("collector: " + s.kernelLine() + "; kernel events written " + s.kernelEventsWritten()
                    + ", lost " + s.kernelEventsLost() + ", events lost in the header " + s.eventsLost());
        }
    }

    /** {@code pairs} pairs of threads hand a token over with park/unpark for {@code millis}; returns the hand-overs. */
    static long pingPong(int pairs, long millis) throws InterruptedException {
        AtomicLong count = new AtomicLong();
        long end = System.nanoTime() + millis * 1_000_000L;
        List<Thread> all = new ArrayList<>();
        for (int p = 0; p < pairs; p++) {
            AtomicReference<Thread> turn = new AtomicReference<>();
            Thread[] t = new Thread[2];
            for (int i = 0; i < 2; i++) {
                int me = i;
                t[i] = new Thread(() -> {
                    long n = 0;
                    while (System.nanoTime() < end) {
                        while (turn.get() != Thread.currentThread()) {
                            if (System.nanoTime() >= end) {
                                count.addAndGet(n);
                                LockSupport.unpark(t[1 - me]);
                                return;
                            }
                            LockSupport.parkNanos(1_000_000L);
                        }
                        n++;
                        turn.set(t[1 - me]);
                        LockSupport.unpark(t[1 - me]);
                    }
                    count.addAndGet(n);
                    LockSupport.unpark(t[1 - me]);
                }, "ping-pong-" + p + "-" + i);
            }
            turn.set(t[0]);
            all.add(t[0]);
            all.add(t[1]);
        }
        for (Thread t : all) {
            t.start();
        }
        for (Thread t : all) {
            t.join();
        }
        return count.get();
    }
}
