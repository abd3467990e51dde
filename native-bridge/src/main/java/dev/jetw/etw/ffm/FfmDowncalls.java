package dev.jetw.etw.ffm;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

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
 * <p>Its users: the Windows binding ({@code dev.jetw.etw.windows.FfmCrossing}: three per-event calls into
 * advapi32), the Linux kernel collector ({@code dev.jetw.etw.portable.linux.PerfCalls}: perf_event_open(2),
 * mmap, ioctl and close in the C library the JVM itself is linked with, found by {@link #libc}; never JNA on
 * Linux) and the benchmarks ({@code dev.jetw.bench.BenchDowncalls}), which measure exactly this code.
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
    private final Class<?> segmentClass;

    private FfmDowncalls(Object linker, Method downcallHandle, Method descriptorOf, Method segmentOfAddress,
                         Class<?> memoryLayout, Object javaInt, Object javaLong, Object noOptions,
                         Object criticalOption, Class<?> segmentClass) {
        this.linker = linker;
        this.downcallHandle = downcallHandle;
        this.descriptorOf = descriptorOf;
        this.segmentOfAddress = segmentOfAddress;
        this.memoryLayout = memoryLayout;
        this.javaInt = javaInt;
        this.javaLong = javaLong;
        this.noOptions = noOptions;
        this.criticalOption = criticalOption;
        this.segmentClass = segmentClass;
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
                critical,
                segment);
    }

    /**
     * The address of {@code symbol} in the libraries the JVM is linked with (Linker.defaultLookup(): the C
     * library on Linux), 0 when it has none.
     */
    public long libc(String symbol) throws ReflectiveOperationException {
        // Through the public interfaces: the objects' own classes are in packages java.base does not export.
        Object lookup = Class.forName("java.lang.foreign.Linker").getMethod("defaultLookup").invoke(linker);
        Object found = Class.forName("java.lang.foreign.SymbolLookup").getMethod("find", String.class)
                .invoke(lookup, symbol);
        Object segment = ((java.util.Optional<?>) found).orElse(null);
        return segment == null ? 0 : address(segment);
    }

    /**
     * A direct buffer over {@code length} bytes of native memory at {@code address} (memory this process
     * mapped, e.g. a perf ring; native byte order). Valid until that memory is unmapped: the caller must
     * not touch it after.
     */
    public ByteBuffer memory(long address, long length) throws ReflectiveOperationException {
        Object at = segmentOfAddress.invoke(null, address);
        Object sized = segmentClass.getMethod("reinterpret", long.class).invoke(at, length);
        ByteBuffer b = (ByteBuffer) segmentClass.getMethod("asByteBuffer").invoke(sized);
        return b.order(ByteOrder.nativeOrder());
    }

    /** The native address of a direct buffer's first byte, to pass as a pointer while the buffer is reachable. */
    public long addressOf(ByteBuffer direct) throws ReflectiveOperationException {
        if (!direct.isDirect()) {
            throw new IllegalArgumentException("not a direct buffer");
        }
        return address(segmentClass.getMethod("ofBuffer", java.nio.Buffer.class).invoke(null, direct));
    }

    private long address(Object segment) throws ReflectiveOperationException {
        return (Long) segmentClass.getMethod("address").invoke(segment);
    }

    /**
     * Where a call made through a handle of {@link #downcallWithErrno} leaves errno
     * (Linker.Option.captureCallState: read right after the call, before the JVM itself can overwrite it).
     * One per thread that calls: a handle writes into the cell it was made with.
     */
    public static final class ErrnoCell {
        final Object segment;
        private final ByteBuffer view;
        private final int offset;

        ErrnoCell(Object segment, ByteBuffer view, int offset) {
            this.segment = segment;
            this.view = view;
            this.offset = offset;
        }

        /** errno as the last call through a handle of this cell left it. */
        public int errno() {
            return view.getInt(offset);
        }
    }

    /** A new cell for {@link #downcallWithErrno}. */
    public ErrnoCell errnoCell() throws ReflectiveOperationException {
        Class<?> option = Class.forName("java.lang.foreign.Linker$Option");
        Object layout = option.getMethod("captureStateLayout").invoke(null);
        long size = (Long) memoryLayout.getMethod("byteSize").invoke(layout);
        Class<?> pathElement = Class.forName("java.lang.foreign.MemoryLayout$PathElement");
        Object path = Array.newInstance(pathElement, 1);
        Array.set(path, 0, pathElement.getMethod("groupElement", String.class).invoke(null, "errno"));
        long offset = (Long) memoryLayout.getMethod("byteOffset", path.getClass()).invoke(layout, path);
        ByteBuffer view = ByteBuffer.allocateDirect((int) size).order(ByteOrder.nativeOrder());
        Object segment = segmentClass.getMethod("ofBuffer", java.nio.Buffer.class).invoke(null, view);
        return new ErrnoCell(segment, view, (int) offset);
    }

    /**
     * As {@link #downcall(long, Class, Class[])}, and errno is captured into {@code cell} at every call
     * (Linker.Option.captureCallState("errno"), its segment bound as the handle's first argument, so the
     * handle's type is still {@code (parameterTypes)returnType}).
     */
    public MethodHandle downcallWithErrno(long functionAddress, ErrnoCell cell, Class<?> returnType,
                                          Class<?>... parameterTypes) throws ReflectiveOperationException {
        Class<?> option = Class.forName("java.lang.foreign.Linker$Option");
        Object capture = Array.newInstance(option, 1);
        Array.set(capture, 0, option.getMethod("captureCallState", String[].class).invoke(null,
                (Object) new String[] {"errno"}));
        MethodHandle handle = MethodHandles.insertArguments(build(functionAddress, capture, returnType, parameterTypes),
                0, cell.segment);
        return checked(handle, returnType, parameterTypes);
    }

    /**
     * A downcall handle of type {@code (parameterTypes)returnType} for the C function at
     * {@code functionAddress}; every type is {@code int.class} or {@code long.class}.
     */
    public MethodHandle downcall(long functionAddress, Class<?> returnType, Class<?>... parameterTypes)
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
        return checked(build(functionAddress, critical ? criticalOption : noOptions, returnType, parameterTypes),
                returnType, parameterTypes);
    }

    private MethodHandle build(long functionAddress, Object options, Class<?> returnType, Class<?>... parameterTypes)
            throws ReflectiveOperationException {
        Object arguments = Array.newInstance(memoryLayout, parameterTypes.length);
        for (int i = 0; i < parameterTypes.length; i++) {
            Array.set(arguments, i, layoutOf(parameterTypes[i]));
        }
        Object descriptor = descriptorOf.invoke(null, layoutOf(returnType), arguments);
        Object function = segmentOfAddress.invoke(null, functionAddress);
        try {
            return (MethodHandle) downcallHandle.invoke(linker, function, descriptor, options);
        } catch (InvocationTargetException e) {
            // e.g. IllegalCallerException when native access is denied (--illegal-native-access=deny)
            throw new ReflectiveOperationException("Linker.downcallHandle: " + e.getCause(), e.getCause());
        }
    }

    private static MethodHandle checked(MethodHandle handle, Class<?> returnType, Class<?>... parameterTypes)
            throws ReflectiveOperationException {
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
