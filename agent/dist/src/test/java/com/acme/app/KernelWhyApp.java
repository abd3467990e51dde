package com.acme.app;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Calls slow for known reasons, for {@code jetw etl why} on a trace with the Linux kernel's evidence
 * (KernelWhyIT): sleepRequest() sleeps 300 ms; spinRequest() spins 400 ms with no other busy thread of this
 * JVM; lockRequest() on thread "jetw-kernel-contender" blocks on a monitor main holds for 300 ms;
 * fsyncRequest() writes 4 MiB to a file in the folder given as the first argument and forces it to disk;
 * crowdRequest() does a fixed amount of CPU work on each of 4 threads per CPU at once (more busy threads than
 * cores: each waits for a CPU most of the time). main and the helpers are not traced (excluded), so these are
 * top-level calls. Prints "tid NAME JAVA_ID" for the threads, "cpu METHOD THREAD NANOS" for the CPU time the
 * spin and each crowd call got (the thread's own CPU clock: what the kernel's states must match, however busy
 * the machine is) and "done" at the end.
 */
public final class KernelWhyApp {

    static final Object MONITOR = new Object();
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(args[0]);
        cpuNanos(); // the management classes load here, outside the traced calls
        System.out.println("tid main " + Thread.currentThread().getId());
        sleepRequest();
        contend();
        fsyncRequest(dir);
        crowd();
        spinRequest();
        System.out.println("done");
    }

    static void sleepRequest() throws InterruptedException {
        Thread.sleep(300);
    }

    static void spinRequest() {
        long cpu = cpuNanos();
        long end = System.nanoTime() + 400_000_000L;
        long x = 0;
        while (System.nanoTime() < end) {
            x = x * 31 + 7;
        }
        sink = x;
        printCpu("spinRequest", cpuNanos() - cpu);
    }

    static long cpuNanos() {
        return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    static void printCpu(String method, long nanos) {
        System.out.println("cpu " + method + " " + Thread.currentThread().getName() + " " + nanos);
    }

    static void contend() throws InterruptedException {
        Contention.holdWhileBlocked(MONITOR, new Thread(KernelWhyApp::lockRequest, "jetw-kernel-contender"), 300);
    }

    static void lockRequest() {
        synchronized (MONITOR) {
            sink++;
        }
    }

    static void fsyncRequest(Path dir) throws Exception {
        Path file = dir.resolve("kernel-why.dat");
        ByteBuffer block = ByteBuffer.allocate(1 << 20);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int i = 0; i < 4; i++) {
                block.clear();
                ch.write(block);
            }
            ch.force(true);
        }
        Files.delete(file);
    }

    static void crowd() throws InterruptedException {
        int n = 4 * Runtime.getRuntime().availableProcessors();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            threads.add(new Thread(KernelWhyApp::crowdRequest, "jetw-kernel-crowd-" + i));
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    /** A fixed amount of CPU work: about 150 ms on a CPU of its own (this VM). */
    static void crowdRequest() {
        long cpu = cpuNanos();
        long x = 1;
        for (int i = 0; i < 150_000_000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        sink += x;
        printCpu("crowdRequest", cpuNanos() - cpu);
    }
}
