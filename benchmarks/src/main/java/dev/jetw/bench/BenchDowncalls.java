package dev.jetw.bench;

import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import dev.jetw.etw.ffm.FfmDowncalls;
import java.lang.invoke.MethodHandle;

/**
 * Lets the benchmarks build downcall handles with the production {@link FfmDowncalls} (the code the
 * Windows binding uses, so the benchmarks measure exactly that). Java 22+ only; elsewhere
 * {@link #downcall} throws with the reason.
 */
public final class BenchDowncalls {

    private BenchDowncalls() {
    }

    /** A downcall to {@code function} of {@code library} (JNA resolves the address, as the binding does). */
    public static MethodHandle downcall(String library, String function, boolean critical, Class<?> returnType,
                                        Class<?>... parameterTypes) {
        try {
            long address = Pointer.nativeValue(NativeLibrary.getInstance(library).getFunction(function));
            return FfmDowncalls.open().downcall(address, critical, returnType, parameterTypes);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no FFM downcall for " + function + " in this JVM ("
                    + System.getProperty("java.version") + "; Java 22+ needed): " + e, e);
        }
    }
}
