package dev.jetw.etw.windows;

import com.sun.jna.Pointer;

/**
 * How the calls made for every event cross into native code: TraceEventInstance, TraceEvent and
 * CreateTraceInstanceId. Two implementations, chosen once when the library is bound
 * ({@link EventCrossings#choose}): FFM downcall handles on Java 22+ ({@link FfmCrossing}), JNA
 * direct mapping elsewhere and as the fallback ({@link JnaDirectCrossing}). Neither allocates on
 * the Java heap per call. Signatures as in {@link NativeEtw}.
 */
interface EventCrossing {

    /** {@link #name()} of the FFM crossing. */
    String FFM = "ffm";
    /** {@link #name()} of the JNA direct-mapping crossing. */
    String JNA_DIRECT = "jna-direct";

    /** {@link #FFM} or {@link #JNA_DIRECT}. */
    String name();

    int traceEventInstance(long traceHandle, Pointer eventTrace, Pointer instInfo, Pointer parentInstInfo);

    int traceEvent(long traceHandle, Pointer eventTrace);

    int createTraceInstanceId(Pointer regHandle, Pointer instInfo);
}
