package dev.jetw.bench;

import com.sun.jna.Library;
import com.sun.jna.Native;
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
 * The floor of the Windows backend's per-event cost: one JNA crossing to a native function that
 * does (almost) nothing, direct-mapped (as TraceEventInstance is) and interface-mapped (as the
 * control calls are). libc's {@code abs} stands in for the no-op.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
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

    @Param("-7")
    public int value;

    @Benchmark
    public int direct() {
        return DirectLibc.abs(value);
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
