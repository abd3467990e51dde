package dev.jetw.selftest;

import com.sun.jna.Native;

/**
 * The thread id a backend puts in the records of the calling thread: the Windows thread id
 * (GetCurrentThreadId) for ETW, the Java thread id for the portable backend (docs/portable-backend.md).
 * The scenario compares it with the ThreadId field of every record it wrote.
 */
abstract class ThreadIds {

    abstract int current();

    static ThreadIds forBackend(String backendName) {
        return "windows".equals(backendName) ? new Windows() : new Java();
    }

    private static final class Java extends ThreadIds {
        @Override
        int current() {
            return (int) Thread.currentThread().getId();
        }
    }

    /** kernel32's GetCurrentThreadId through JNA (loaded only on Windows). */
    private static final class Windows extends ThreadIds {
        private final Kernel32Threads kernel32 = Native.load("kernel32", Kernel32Threads.class);

        @Override
        int current() {
            return kernel32.GetCurrentThreadId();
        }
    }
}
