package dev.jetw.etw.windows;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * The direct-mapped half of the binding: the calls made for every event ({@link JnaDirectCrossing};
 * on Java 22+ {@link FfmCrossing} makes them instead).
 *
 * <p>JNA direct mapping registers these static natives straight onto the native functions, so a
 * call converts its arguments in native code: {@code long} and {@code int} pass as they are, a
 * {@link Pointer} passes its address, and the {@code int} result comes back unboxed. Nothing is
 * allocated on the Java heap per call (no Object[] of arguments, no boxing), which the interface
 * mapping cannot offer. Callers preallocate the structs as {@code Memory} once and reuse them.
 *
 * <p>A class can be registered with only one library per class loader, so {@link #bind} binds
 * once and refuses a second, different library with a clear message.
 */
final class Advapi32Direct {

    private static NativeLibrary bound;

    private Advapi32Direct() {
    }

    /** Binds the natives below to {@code library} (opened with the stdcall convention); idempotent for the same library. */
    static synchronized void bind(NativeLibrary library) {
        if (bound == library) {
            return;
        }
        if (bound != null) {
            throw new IllegalStateException("the per-event ETW calls are already bound to '" + bound.getName()
                    + "'; cannot rebind them to '" + library.getName() + "' (one library per class loader)");
        }
        Native.register(Advapi32Direct.class, library);
        bound = library;
    }

    /** ULONG TraceEventInstance(TRACELOGGER_HANDLE, PEVENT_INSTANCE_HEADER, PEVENT_INSTANCE_INFO, PEVENT_INSTANCE_INFO). */
    static native int TraceEventInstance(long traceHandle, Pointer eventTrace, Pointer instInfo, Pointer parentInstInfo);

    /** ULONG TraceEvent(TRACEHANDLE, PEVENT_TRACE_HEADER): plain events (instance id 0). */
    static native int TraceEvent(long traceHandle, Pointer eventTrace);

    /** ULONG CreateTraceInstanceId(HANDLE RegHandle, PEVENT_INSTANCE_INFO InstInfo). */
    static native int CreateTraceInstanceId(Pointer regHandle, Pointer instInfo);
}
