package dev.jetw.bench;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/**
 * The time sources a Java agent could stamp events with, each read as a {@code long} of
 * nanoseconds (or of its own unit, converted), shared by {@link ClockBenchmark} (cost per read) and
 * {@link ClockResolution} (the smallest step each one shows). Linux clock ids from
 * {@code <linux/time.h>}: CLOCK_MONOTONIC 1, CLOCK_MONOTONIC_COARSE 6.
 */
final class ClockSources {

    static final int CLOCK_MONOTONIC = 1;
    static final int CLOCK_MONOTONIC_COARSE = 6;

    /** {@code int clock_gettime(clockid_t, struct timespec *)} through FFM (Java 22+), or null with {@link #FFM_PROBLEM}. */
    private static final MethodHandle CLOCK_GETTIME;
    private static final MethodHandle CLOCK_GETTIME_CRITICAL;
    static final String FFM_PROBLEM;
    private static final Clock UTC = Clock.systemUTC();

    /** The struct timespec clock_gettime fills: tv_sec, tv_nsec (two 64-bit words on x86_64 Linux). */
    private static final ByteBuffer TIMESPEC = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
    private static final long TIMESPEC_ADDRESS = Pointer.nativeValue(Native.getDirectBufferPointer(TIMESPEC));

    static {
        MethodHandle plain = null;
        MethodHandle critical = null;
        String problem = null;
        try {
            plain = BenchDowncalls.downcall("c", "clock_gettime", false, int.class, int.class, long.class);
            critical = BenchDowncalls.downcall("c", "clock_gettime", true, int.class, int.class, long.class);
        } catch (RuntimeException e) {
            problem = e.getMessage();
        }
        CLOCK_GETTIME = plain;
        CLOCK_GETTIME_CRITICAL = critical;
        FFM_PROBLEM = problem;
    }

    private ClockSources() {
    }

    static long currentTimeMillisAsNanos() {
        return System.currentTimeMillis() * 1_000_000L;
    }

    static long clockMillisAsNanos() {
        return UTC.millis() * 1_000_000L;
    }

    /** Wall clock, not monotonic; what a Clock/Instant-based stamp would cost. */
    static long instantNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** clock_gettime({@code clock}) through an FFM downcall, normal or critical (no thread-state transition). */
    static long clockGettime(int clock, boolean critical) throws Throwable {
        MethodHandle h = critical ? CLOCK_GETTIME_CRITICAL : CLOCK_GETTIME;
        if (h == null) {
            throw new IllegalStateException(FFM_PROBLEM);
        }
        int rc = (int) h.invokeExact(clock, TIMESPEC_ADDRESS);
        if (rc != 0) {
            throw new IllegalStateException("clock_gettime(" + clock + ") returned " + rc);
        }
        return TIMESPEC.getLong(0) * 1_000_000_000L + TIMESPEC.getLong(8);
    }

    /**
     * A daemon thread that stores System.nanoTime() in a volatile field, then parks for
     * {@code periodNanos}: readers pay one volatile read, and get a time that is up to one
     * period (plus the wake-up latency) old.
     */
    static final class Ticker implements AutoCloseable {
        private volatile long now = System.nanoTime();
        private volatile boolean running = true;
        private final Thread thread;

        Ticker(final long periodNanos) {
            thread = new Thread(() -> {
                while (running) {
                    now = System.nanoTime();
                    LockSupport.parkNanos(periodNanos);
                }
            }, "clock-ticker");
            thread.setDaemon(true);
            thread.start();
        }

        long now() {
            return now;
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join();
        }
    }
}
