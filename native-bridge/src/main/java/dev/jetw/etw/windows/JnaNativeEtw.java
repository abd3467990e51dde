package dev.jetw.etw.windows;

/**
 * Binds {@link NativeEtw} to a native library through JNA: control calls interface-mapped,
 * per-event calls (TraceEventInstance, CreateTraceInstanceId) direct-mapped.
 * PLACEHOLDER until the binding lands (winnative).
 */
public final class JnaNativeEtw {

    private JnaNativeEtw() {
    }

    /** advapi32.dll, the library that exports every ETW function on every Windows version. */
    public static NativeEtw loadAdvapi32() {
        return load("Advapi32");
    }

    /** Any library exporting the advapi32 ETW names (tests bind a gcc-built stub this way). */
    public static NativeEtw load(String libraryNameOrPath) {
        throw new UnsupportedOperationException("JNA binding not built yet");
    }
}
