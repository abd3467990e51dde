package dev.jetw.etw.windows;

import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/** The per-event calls over JNA's direct mapping ({@link Advapi32Direct}): Java 8-21, x86, and the FFM fallback. */
final class JnaDirectCrossing implements EventCrossing {

    private static final JnaDirectCrossing INSTANCE = new JnaDirectCrossing();

    private JnaDirectCrossing() {
    }

    /** Binds {@link Advapi32Direct} to {@code library}; the same one-library rule applies. */
    static EventCrossing bind(NativeLibrary library) {
        Advapi32Direct.bind(library);
        return INSTANCE;
    }

    @Override
    public String name() {
        return JNA_DIRECT;
    }

    @Override
    public int traceEventInstance(long traceHandle, Pointer eventTrace, Pointer instInfo, Pointer parentInstInfo) {
        return Advapi32Direct.TraceEventInstance(traceHandle, eventTrace, instInfo, parentInstInfo);
    }

    @Override
    public int traceEvent(long traceHandle, Pointer eventTrace) {
        return Advapi32Direct.TraceEvent(traceHandle, eventTrace);
    }

    @Override
    public int createTraceInstanceId(Pointer regHandle, Pointer instInfo) {
        return Advapi32Direct.CreateTraceInstanceId(regHandle, instInfo);
    }
}
