package dev.jetw.agent.core.writing;

import dev.jetw.etw.OsThreadId;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The OS thread id a thread's Thread rundown carries, read once per thread when it is named (never per
 * event): its own tid on Linux ({@link OsThreadId}); 0 for a virtual thread, whose OS thread is whichever
 * carrier mounts it at the moment (a carrier's kernel states are not the virtual thread's: docs/jvm-events.md
 * and docs/linux-kernel-events.md say what why does with them), and where the OS does not say.
 */
final class OsThreads {

    /** Thread.isVirtual() on Java 21+; null before (no virtual threads). */
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private OsThreads() {
    }

    static long ofCurrentThread() {
        return isVirtual(Thread.currentThread()) ? 0 : OsThreadId.current();
    }

    static boolean isVirtual(Thread t) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invoke(t);
        } catch (Throwable e) {
            return false;
        }
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }
}
