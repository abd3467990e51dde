package dev.jetw.etw.windows;

import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import dev.jetw.etw.ffm.FfmDowncalls;

import java.lang.invoke.MethodHandle;

/**
 * The per-event calls through FFM downcall handles (Java 22+, 64-bit). The handles are static
 * finals of {@link Handles}, so the JIT treats each as a constant and inlines the downcall at the
 * call site; {@code invokeExact} is signature polymorphic, so this compiles at release 8 and the
 * call site's descriptor ({@code (JJJJ)I} etc.) must equal the handle's type exactly. Pointers
 * pass as their address ({@link FfmDowncalls} explains why that is the same argument on 64-bit).
 *
 * <p>Static finals mean one library per class loader, as for {@link Advapi32Direct}: {@link #bind}
 * is idempotent for the same library and refuses a different one. The function addresses come
 * from the JNA {@link NativeLibrary} the control calls use, so both halves call the same library.
 */
final class FfmCrossing implements EventCrossing {

    private static final FfmCrossing INSTANCE = new FfmCrossing();

    private static NativeLibrary bound;
    /** Read once by {@link Handles}' initializer, which {@link #bind} triggers while holding the class lock. */
    private static FfmDowncalls pendingLinker;
    private static long[] pendingAddresses;

    private FfmCrossing() {
    }

    /**
     * Binds the downcall handles to {@code library}'s exports. Fails with UnsatisfiedLinkError for a
     * missing export and ReflectiveOperationException where FFM is unavailable; both leave the class
     * unbound, so a later bind can still succeed. Callers fall back to JNA.
     */
    static synchronized EventCrossing bind(NativeLibrary library) throws ReflectiveOperationException {
        if (bound == library) {
            return INSTANCE;
        }
        if (bound != null) {
            throw new IllegalStateException("the FFM per-event ETW calls are already bound to '" + bound.getName()
                    + "'; cannot rebind them to '" + library.getName() + "' (one library per class loader)");
        }
        try {
            pendingAddresses = new long[] {
                    Pointer.nativeValue(library.getFunction("TraceEventInstance")),
                    Pointer.nativeValue(library.getFunction("TraceEvent")),
                    Pointer.nativeValue(library.getFunction("CreateTraceInstanceId"))};
            pendingLinker = FfmDowncalls.open();
            if (Handles.TRACE_EVENT_INSTANCE == null) {
                throw new ReflectiveOperationException("downcall handles not built");
            }
        } catch (ExceptionInInitializerError e) {
            throw new ReflectiveOperationException("cannot build the downcall handles: " + e.getCause(), e.getCause());
        } finally {
            pendingLinker = null;
            pendingAddresses = null;
        }
        bound = library;
        return INSTANCE;
    }

    /** The handles; initialised by the first {@link #bind} that got this far, never again (static finals). */
    private static final class Handles {
        static final MethodHandle TRACE_EVENT_INSTANCE;
        static final MethodHandle TRACE_EVENT;
        static final MethodHandle CREATE_TRACE_INSTANCE_ID;

        static {
            try {
                FfmDowncalls ffm = pendingLinker;
                long[] at = pendingAddresses;
                TRACE_EVENT_INSTANCE = ffm.downcall(at[0], int.class, long.class, long.class, long.class, long.class);
                TRACE_EVENT = ffm.downcall(at[1], int.class, long.class, long.class);
                CREATE_TRACE_INSTANCE_ID = ffm.downcall(at[2], int.class, long.class, long.class);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }
    }

    @Override
    public String name() {
        return FFM;
    }

    @Override
    public int traceEventInstance(long traceHandle, Pointer eventTrace, Pointer instInfo, Pointer parentInstInfo) {
        try {
            return (int) Handles.TRACE_EVENT_INSTANCE.invokeExact(traceHandle, address(eventTrace), address(instInfo),
                    address(parentInstInfo));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    @Override
    public int traceEvent(long traceHandle, Pointer eventTrace) {
        try {
            return (int) Handles.TRACE_EVENT.invokeExact(traceHandle, address(eventTrace));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    @Override
    public int createTraceInstanceId(Pointer regHandle, Pointer instInfo) {
        try {
            return (int) Handles.CREATE_TRACE_INSTANCE_ID.invokeExact(address(regHandle), address(instInfo));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** NULL for a null Pointer, as JNA passes it. */
    private static long address(Pointer p) {
        return p == null ? 0L : Pointer.nativeValue(p);
    }

    /** A downcall throws nothing checked; anything else is passed on as it is (callers catch Throwable). */
    private static RuntimeException unchecked(Throwable t) {
        if (t instanceof RuntimeException) {
            return (RuntimeException) t;
        }
        if (t instanceof Error) {
            throw (Error) t;
        }
        return new IllegalStateException(t);
    }
}
