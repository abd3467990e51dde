package dev.jetw.etw.windows;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

import java.util.function.Consumer;

/**
 * Chooses the per-event crossing once, when a library is bound: FFM downcall handles where the
 * running JVM has the final FFM API (Java 22+) and 8-byte pointers, JNA direct mapping otherwise.
 * If FFM setup fails (a missing export, native access denied, anything), one line says why and
 * tracing goes on over JNA.
 */
final class EventCrossings {

    /** Loads (and binds) one crossing; the seam the selection test replaces. */
    interface Binder {
        EventCrossing bind() throws Exception;
    }

    private EventCrossings() {
    }

    /** The crossing for {@code library} in this JVM; a FFM failure goes to {@code oneLine}. */
    static EventCrossing choose(final NativeLibrary library, Consumer<String> oneLine) {
        return choose(javaFeatureVersion(), Native.POINTER_SIZE,
                () -> FfmCrossing.bind(library), () -> JnaDirectCrossing.bind(library), oneLine);
    }

    static EventCrossing choose(int javaFeature, int pointerSize, Binder ffm, Binder jna, Consumer<String> oneLine) {
        if (javaFeature >= 22 && pointerSize == 8) {
            try {
                return ffm.bind();
            } catch (Throwable t) {
                oneLine.accept("jetw: FFM downcalls unavailable (" + t + "); the per-event ETW calls use JNA direct"
                        + " mapping");
            }
        }
        try {
            return jna.bind();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** 8 for "1.8", else the leading number of java.specification.version ("22", "25"). */
    static int javaFeatureVersion() {
        String v = System.getProperty("java.specification.version", "1.8");
        String lead = v.startsWith("1.") ? v.substring(2) : v;
        int dot = lead.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? lead : lead.substring(0, dot));
        } catch (NumberFormatException e) {
            return 8;
        }
    }
}
