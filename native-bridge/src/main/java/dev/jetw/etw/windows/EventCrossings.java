package dev.jetw.etw.windows;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

import java.util.function.Consumer;

/**
 * Chooses the per-event crossing once, when a library is bound: FFM downcall handles where the
 * running JVM has the final FFM API (Java 22+) and 8-byte pointers, JNA direct mapping otherwise.
 * If FFM setup fails (a missing export, native access denied, anything), one line says why and
 * tracing goes on over JNA.
 *
 * <p>On Java 22 and 23 the first restricted FFM call prints the JDK's "restricted method" warning into
 * the application's stderr, while JNA's library loading does not (JNI warns only from 24 on). jetw
 * must not write into the target's output, so there FFM is used only when native access is already
 * enabled for jetw's module ({@code --enable-native-access}); from 24 on JNA triggers the same
 * warning anyway, so FFM costs nothing extra.
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
        int feature = javaFeatureVersion();
        return choose(feature, Native.POINTER_SIZE, feature >= 22 && nativeAccessEnabled(),
                () -> FfmCrossing.bind(library), () -> JnaDirectCrossing.bind(library), oneLine);
    }

    static EventCrossing choose(int javaFeature, int pointerSize, boolean nativeAccessEnabled, Binder ffm,
                                Binder jna, Consumer<String> oneLine) {
        boolean ffmWarnsNothingNew = javaFeature >= 24 || (javaFeature >= 22 && nativeAccessEnabled);
        if (ffmWarnsNothingNew && pointerSize == 8) {
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

    /** Module.isNativeAccessEnabled() (Java 22+) for this class's module, read reflectively; false if unknown. */
    static boolean nativeAccessEnabled() {
        try {
            Object module = Class.class.getMethod("getModule").invoke(EventCrossings.class);
            return (Boolean) module.getClass().getMethod("isNativeAccessEnabled").invoke(module);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    /** The running Java's feature version; 8 (the oldest the agent runs on) when it cannot be read. */
    static int javaFeatureVersion() {
        int feature = dev.jetw.etw.JavaFeature.current();
        return feature == 0 ? 8 : feature;
    }
}
