package dev.jetw.bench.kernel;

/**
 * A CPU-bound workload for {@code kernel=profile} (BENCHMARKS.md §20): THREADS threads each run a fixed xorshift
 * loop in rounds of 1,000,000 steps for SECONDS seconds, no I/O, no allocation in the loop; prints "rounds N" (the
 * rounds all threads completed) and "cpu MS" (this process's CPU time, ms). {@code CpuLoad THREADS SECONDS}.
 */
public final class CpuLoad {

    static volatile long sink;

    private CpuLoad() {
    }

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        long seconds = Long.parseLong(args[1]);
        long[] rounds = new long[threads];
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        Thread[] t = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            final int k = i;
            t[i] = new Thread(() -> {
                long x = k + 1;
                while (System.nanoTime() < end) {
                    for (int s = 0; s < 1_000_000; s++) {
                        x ^= x << 13; // xorshift: a dependent chain the JIT cannot fold
                        x ^= x >>> 7;
                        x ^= x << 17;
                    }
                    rounds[k]++;
                }
                sink = x;
            }, "cpu-load-" + i);
            t[i].start();
        }
        long total = 0;
        for (int i = 0; i < threads; i++) {
            t[i].join();
            total += rounds[i];
        }
        System.out.println("rounds " + total);
        System.out.println("cpu " + ((com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1_000_000);
    }
}
