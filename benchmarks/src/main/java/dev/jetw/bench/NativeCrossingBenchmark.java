package dev.jetw.bench;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The floor of the Windows backend's per-event cost: one crossing to a native function that does
 * (almost) nothing, through each binding the backend has: JNA direct-mapped (the per-event calls on
 * Java 8-21), an FFM downcall handle built by the binding's own {@code FfmDowncalls} (the per-event
 * calls on Java 22+; run on a 22+ JVM, else {@code ffm*} fail with the reason) and JNA
 * interface-mapped (the control calls). {@code ffmCritical} adds Linker.Option.critical, which jetw
 * does not use for ETW (TraceEventInstance enters the kernel): it shows what the thread-state
 * transition costs. libc's {@code abs} stands in for the no-op.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 3, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@State(Scope.Benchmark)
public class NativeCrossingBenchmark {

    /** Direct mapping: a static native method bound by Native.register. */
    public static final class DirectLibc {
        static {
            Native.register(DirectLibc.class, "c");
        }

        public static native int abs(int value);
    }

    /** Interface mapping: a proxy through JNA's reflective dispatch. */
    public interface InterfaceLibc extends Library {
        int abs(int value);
    }

    private static final InterfaceLibc INTERFACE_LIBC = Native.load("c", InterfaceLibc.class);

    private static final String FFM_PROBLEM;
    private static final MethodHandle FFM_ABS;
    private static final MethodHandle FFM_CRITICAL_ABS;

    static {
        MethodHandle plain = null;
        MethodHandle critical = null;
        String problem = null;
        try {
            plain = BenchDowncalls.downcall("c", "abs", false, int.class, int.class);
            critical = BenchDowncalls.downcall("c", "abs", true, int.class, int.class);
        } catch (RuntimeException e) {
            problem = e.getMessage();
        }
        FFM_ABS = plain;
        FFM_CRITICAL_ABS = critical;
        FFM_PROBLEM = problem;
    }

    @Param("-7")
    public int value;

    @Benchmark
    public int direct() {
        return DirectLibc.abs(value);
    }

    @Benchmark
    public int ffm() throws Throwable {
        if (FFM_ABS == null) {
            throw new IllegalStateException(FFM_PROBLEM);
        }
        return (int) FFM_ABS.invokeExact(value);
    }

    @Benchmark
    public int ffmCritical() throws Throwable {
        if (FFM_CRITICAL_ABS == null) {
            throw new IllegalStateException(FFM_PROBLEM);
        }
        return (int) FFM_CRITICAL_ABS.invokeExact(value);
    }

    @Benchmark
    public int interfaceMapped() {
        return INTERFACE_LIBC.abs(value);
    }

    @Benchmark
    public int javaBaseline() {
        return Math.abs(value);
    }
}
