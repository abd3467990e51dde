package dev.jetw.etw.windows;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Builds FFM downcall handles (java.lang.foreign, final in Java 22) through reflection, so that
 * this class compiles at release 8 on any JDK and loads on Java 8; only {@link #open()} touches
 * java.lang.foreign, and it fails with a ReflectiveOperationException where the API is missing.
 *
 * <p>Only {@code int} and {@code long} carriers (JAVA_INT, JAVA_LONG): callers pass pointers as
 * their {@code long} address. That is the same argument on every 64-bit ABI the JDK's native
 * linker supports (x64 System V and Windows x64, AArch64 incl. Windows on ARM): a pointer and a
 * 64-bit integer go in the same general-purpose register or stack slot, so no MemorySegment has to
 * be made per call. It is wrong where pointers are 4 bytes, so {@link #open()} refuses unless
 * ValueLayout.ADDRESS is 8 bytes (32-bit JVMs keep JNA, which also does stdcall).
 *
 * <p>Public, with {@link #open()} and {@link #downcall(long, boolean, Class, Class[])}, only for the benchmarks
 * ({@code dev.jetw.bench.BenchDowncalls}), which measure exactly this code; the binding itself is its only
 * production user.
 */
public final class FfmDowncalls {

    private final Object linker;
    private final Method downcallHandle;
    private final Method descriptorOf;
    private final Method segmentOfAddress;
    private final Class<?> memoryLayout;
    private final Object javaInt;
    private final Object javaLong;
    private final Object noOptions;
    private final Object criticalOption;

    private FfmDowncalls(Object linker, Method downcallHandle, Method descriptorOf, Method segmentOfAddress,
                         Class<?> memoryLayout, Object javaInt, Object javaLong, Object noOptions,
                         Object criticalOption) {
        this.linker = linker;
        this.downcallHandle = downcallHandle;
        this.descriptorOf = descriptorOf;
        this.segmentOfAddress = segmentOfAddress;
        this.memoryLayout = memoryLayout;
        this.javaInt = javaInt;
        this.javaLong = javaLong;
        this.noOptions = noOptions;
        this.criticalOption = criticalOption;
    }

    /** The running JVM's native linker; fails where java.lang.foreign is absent or pointers are not 8 bytes. */
    public static FfmDowncalls open() throws ReflectiveOperationException {
        Class<?> linkerClass = Class.forName("java.lang.foreign.Linker");
        Class<?> option = Class.forName("java.lang.foreign.Linker$Option");
        Class<?> descriptor = Class.forName("java.lang.foreign.FunctionDescriptor");
        Class<?> layout = Class.forName("java.lang.foreign.MemoryLayout");
        Class<?> valueLayout = Class.forName("java.lang.foreign.ValueLayout");
        Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
        Object address = valueLayout.getField("ADDRESS").get(null);
        long pointerBytes = (Long) layout.getMethod("byteSize").invoke(address);
        if (pointerBytes != 8) {
            throw new ReflectiveOperationException("pointers are " + pointerBytes
                    + " bytes; addresses cannot pass as JAVA_LONG");
        }
        Object noOptions = Array.newInstance(option, 0);
        Object critical = Array.newInstance(option, 1);
        Array.set(critical, 0, option.getMethod("critical", boolean.class).invoke(null, false));
        return new FfmDowncalls(
                linkerClass.getMethod("nativeLinker").invoke(null),
                linkerClass.getMethod("downcallHandle", segment, descriptor, noOptions.getClass()),
                descriptor.getMethod("of", layout, Array.newInstance(layout, 0).getClass()),
                segment.getMethod("ofAddress", long.class),
                layout,
                valueLayout.getField("JAVA_INT").get(null),
                valueLayout.getField("JAVA_LONG").get(null),
                noOptions,
                critical);
    }

    /**
     * A downcall handle of type {@code (parameterTypes)returnType} for the C function at
     * {@code functionAddress}; every type is {@code int.class} or {@code long.class}.
     */
    MethodHandle downcall(long functionAddress, Class<?> returnType, Class<?>... parameterTypes)
            throws ReflectiveOperationException {
        return downcall(functionAddress, false, returnType, parameterTypes);
    }

    /**
     * As {@link #downcall(long, Class, Class[])}; {@code critical} adds Linker.Option.critical(false):
     * no thread-state transition, so the GC waits for the call to return. That is for functions that
     * are as short as an empty one and never block; jetw's ETW calls enter the kernel and are not
     * (only the benchmarks measure critical calls, to show what the transition costs).
     */
    public MethodHandle downcall(long functionAddress, boolean critical, Class<?> returnType, Class<?>... parameterTypes)
            throws ReflectiveOperationException {
        Object arguments = Array.newInstance(memoryLayout, parameterTypes.length);
        for (int i = 0; i < parameterTypes.length; i++) {
            Array.set(arguments, i, layoutOf(parameterTypes[i]));
        }
        Object descriptor = descriptorOf.invoke(null, layoutOf(returnType), arguments);
        Object function = segmentOfAddress.invoke(null, functionAddress);
        MethodHandle handle;
        try {
            handle = (MethodHandle) downcallHandle.invoke(linker, function, descriptor,
                    critical ? criticalOption : noOptions);
        } catch (InvocationTargetException e) {
            // e.g. IllegalCallerException when native access is denied (--illegal-native-access=deny)
            throw new ReflectiveOperationException("Linker.downcallHandle: " + e.getCause(), e.getCause());
        }
        MethodType expected = MethodType.methodType(returnType, parameterTypes);
        if (!handle.type().equals(expected)) {
            throw new ReflectiveOperationException("downcall type " + handle.type() + ", expected " + expected);
        }
        return handle;
    }

    private Object layoutOf(Class<?> type) {
        if (type == int.class) {
            return javaInt;
        }
        if (type == long.class) {
            return javaLong;
        }
        throw new IllegalArgumentException("only int and long carriers: " + type);
    }
}
