package dev.jetw.bootstrap;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The only code instrumented methods call. It lives on the boot class path so that classes of
 * every class loader (java.* included) can see it, and it knows nothing but {@link CallHandler}:
 * the agent's logic, Byte Buddy and JNA stay in the agent's isolated class loader.
 *
 * <p>Without an installed handler every method is a no-op (one volatile read). Nothing here
 * throws into the application: a failing handler is caught and counted.
 *
 * <p>How a method's entry reaches {@link #enter}, and how the agent stops it once the method writes
 * nothing more: {@link MethodEntries}.
 */
public final class Dispatcher {

    /** Null while no agent is attached: instrumented code left behind by a detach then does nothing. */
    private static volatile CallHandler handler;

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

    /**
     * Called at every return of a woven method. Only the token test lives here, so that the method stays within
     * C1's inlining limit ({@code MaxInlineSize}, 35 bytes): C1-compiled code (most of a short job's life) then
     * skips the call for an untraced or muted call instead of calling out of line at each return. See
     * {@link #exitTraced} and docs/weaving.md.
     */
    public static void exit(int methodId, long token, Throwable thrown) {
        if (token != 0L) {
            exitTraced(methodId, token, thrown);
        }
    }

    /** The exit of a call whose entry returned a token: hands it to the handler, if one is installed. */
    private static void exitTraced(int methodId, long token, Throwable thrown) {
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

    /**
     * Installs (or, with null, removes) the agent's handler; no method is muted for the new one. Removing
     * forgets the linked entries too: the detach has restored their classes.
     */
    public static void install(CallHandler h) {
        if (h != null) {
            MethodEntries.reset();
        }
        handler = h;
        if (h == null) {
            MethodEntries.forget();
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
