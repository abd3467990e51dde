package com.acme.app;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * Calls whose CPU samples and hard faults are known (KernelWhyIT's perf test, kernel=profile,memory_hard_faults):
 * spinRequest() spins on the CPU for 300 ms of wall time, sleepRequest() sleeps 300 ms, faultRequest() reads every
 * page of a file mapped into memory after its pages were dropped from the page cache (written, fsynced, then
 * {@code dd iflag=nocache count=0}: posix_fadvise DONTNEED over the whole file), so that it must fault them in
 * from the disk. main (not traced) prints each call's CPU time by its thread's own clock ("cpu METHOD NANOS"), the
 * cache drop's outcome ("dropped EXIT") and "done". The first argument is a folder on a real disk.
 */
public final class KernelProfileApp {

    static final int FILE_BYTES = 8 << 20;
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        Path file = Paths.get(args[0]).resolve("kernel-profile.dat");
        byte[] data = new byte[FILE_BYTES];
        for (int i = 0; i < data.length; i += 512) {
            data[i] = (byte) i;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(data));
            ch.force(true);
        }
        Process dd = new ProcessBuilder("dd", "if=" + file, "iflag=nocache", "count=0", "status=none")
                .redirectErrorStream(true).start();
        System.out.println("dropped " + dd.waitFor());
        Thread.sleep(300); // the collector is running: its first passes are done
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long c0 = mx.getCurrentThreadCpuTime();
        spinRequest();
        long c1 = mx.getCurrentThreadCpuTime();
        sleepRequest();
        long c2 = mx.getCurrentThreadCpuTime();
        faultRequest(file);
        System.out.println("cpu spinRequest " + (c1 - c0));
        System.out.println("cpu sleepRequest " + (c2 - c1));
        Files.delete(file);
        System.out.println("done");
    }

    static void spinRequest() {
        long end = System.nanoTime() + 300_000_000L;
        long x = 0;
        while (System.nanoTime() < end) {
            x += x * 31 + 7;
        }
        sink = x;
    }

    static void sleepRequest() throws InterruptedException {
        Thread.sleep(300);
    }

    static void faultRequest(Path file) throws Exception {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
            long s = 0;
            for (int i = 0; i < m.limit(); i += 4096) {
                s += m.get(i);
            }
            sink = s;
        }
    }
}
