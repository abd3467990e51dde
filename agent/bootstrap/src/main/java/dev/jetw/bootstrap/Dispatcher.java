package dev.jetw.bootstrap;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The only code instrumented methods call. It lives on the boot class path so that classes of
 * every class loader (java.* included) can see it, and it knows nothing but {@link CallHandler}:
 * the agent's logic, Byte Buddy and JNA stay in the agent's isolated class loader.
 *
 * <p>Without an installed handler every method is a no-op (one volatile read). Nothing here
 * throws into the application: a failing handler is caught and counted.
 *
 * <p><b>Muted methods.</b> The call advice reads {@link #MUTED} itself, before it calls {@link #enter}:
 * a branch in the advice is profiled per instrumented method, so the JIT compiles a muted method's
 * entry as one byte read and a jump, with the call in here left cold. The same check inside
 * {@code enter} shares one profile between all methods, and the JIT then inlined the handler's whole
 * entry into every method, excluded or not (BENCHMARKS.md §7, Session 8).
 */
public final class Dispatcher {

    /** Null while no agent is attached: instrumented code left behind by a detach then does nothing. */
    private static volatile CallHandler handler;

    /** Method ids that {@link #MUTED} covers; higher ids are checked by the handler alone. */
    public static final int MUTABLE_IDS = 1 << 16;

    /**
     * Index = method id of the installed handler: nonzero once the handler has said the method writes
     * nothing more in this attach ({@link #mute}). Final, so that the JIT takes its address and length as
     * constants; plain, not volatile: a thread that sees a change late only makes a few more calls into
     * the handler, which returns as before. Cleared whenever a handler is installed or removed, since the
     * next attach numbers its methods afresh.
     */
    public static final byte[] MUTED = new byte[MUTABLE_IDS];

    private static final AtomicLong internalErrors = new AtomicLong();
    private static volatile Throwable lastError;

    private Dispatcher() {
    }

    public static long enter(int methodId) {
        CallHandler h = handler;
        if (h == null) {
            return 0L;
        }
        try {
            return h.enter(methodId);
        } catch (Throwable t) {
            failed(t);
            return 0L;
        }
    }

    public static void exit(int methodId, long token, Throwable thrown) {
        if (token == 0L) {
            return;
        }
        CallHandler h = handler;
        if (h == null) {
            return;
        }
        try {
            h.exit(methodId, token, thrown);
        } catch (Throwable t) {
            failed(t);
        }
    }

    public static void checkpoint(String label, int level) {
        CallHandler h = handler;
        if (h == null) {
            return;
        }
        try {
            h.checkpoint(label, level);
        } catch (Throwable t) {
            failed(t);
        }
    }

    /** What {@code Jetw.isActive()} returns while instrumented. */
    public static boolean isActive() {
        return handler != null;
    }

    /** Installs (or, with null, removes) the agent's handler; no method is muted for the new one. */
    public static void install(CallHandler h) {
        if (h != null) {
            Arrays.fill(MUTED, (byte) 0);
        }
        handler = h;
        if (h == null) {
            Arrays.fill(MUTED, (byte) 0);
        }
    }

    /**
     * Tells the advice of method {@code methodId} to stop calling {@link #enter}: only for a method whose
     * entry returns 0 for the rest of the attach (excluded, or pushed out of the method budget).
     */
    public static void mute(int methodId) {
        if (methodId > 0 && methodId < MUTABLE_IDS) {
            MUTED[methodId] = 1;
        }
    }

    public static CallHandler handler() {
        return handler;
    }

    /** Counts an internal error; the agent core reports the count and the last one in status. */
    public static void failed(Throwable t) {
        internalErrors.incrementAndGet();
        lastError = t;
    }

    public static long internalErrors() {
        return internalErrors.get();
    }

    public static Throwable lastError() {
        return lastError;
    }
}
