package dev.jetw.etw.portable.linux;

import dev.jetw.etw.ffm.FfmDowncalls;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * The C library calls perf events need, made through the JDK's own native linker (java.lang.foreign, final in
 * Java 22, reached by reflection in {@link FfmDowncalls} so that this compiles at release 8): {@code
 * syscall(SYS_perf_event_open, ...)} (glibc has no wrapper), {@code mmap}, {@code munmap}, {@code ioctl},
 * {@code close}, {@code read}. No native file of jetw's is involved, and JNA is never loaded (docs/agent-dist.md: its library
 * is extracted where other users may write).
 *
 * <p>{@code syscall} and {@code ioctl} are variadic in C; they are called with a fixed descriptor of {@code long}
 * arguments. On the two ABIs this runs on (System V x86-64 and AArch64 Linux) variadic integer arguments are passed
 * exactly as fixed ones, in the same registers, and glibc's {@code syscall} is an assembly stub that moves them into
 * the kernel's registers (it never reads a va_list).
 *
 * <p>Used by the collector's starting thread and its perf poller only, never by the application's threads.
 */
final class PerfCalls {

    /** PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE: _IO('$', 0) and _IO('$', 1). */
    static final long IOC_ENABLE = 0x2400;
    static final long IOC_DISABLE = 0x2401;
    private static final int PROT_READ = 1;
    private static final int PROT_WRITE = 2;
    private static final int MAP_SHARED = 1;
    private static final long PERF_FLAG_FD_CLOEXEC = 8;
    static final int ENODEV = 19;
    static final int EINVAL = 22;
    static final int EMFILE = 24;

    /** A call the kernel refused, with its errno. */
    static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;
        final int errno;

        Refused(String call, int errno) {
            super(call + " refused: errno " + errno + errnoName(errno));
            this.errno = errno;
        }
    }

    private final long syscallNumber;
    private final FfmDowncalls ffm;
    private final FfmDowncalls.ErrnoCell errno;
    private final MethodHandle syscall;
    private final MethodHandle mmap;
    private final MethodHandle munmap;
    private final MethodHandle ioctl;
    private final MethodHandle close;
    private final MethodHandle read;
    private final MethodHandle acquireFence;
    /** Reference.reachabilityFence (Java 9+): keeps a buffer whose address a downcall was given alive until it returned. */
    private final MethodHandle reachabilityFence;
    private final MethodHandle fullFence;
    final int pageSize;

    private PerfCalls(long syscallNumber, FfmDowncalls ffm) throws ReflectiveOperationException {
        this.syscallNumber = syscallNumber;
        this.ffm = ffm;
        this.errno = ffm.errnoCell();
        this.syscall = ffm.downcallWithErrno(symbol(ffm, "syscall"), errno, long.class,
                long.class, long.class, long.class, long.class, long.class, long.class);
        this.mmap = ffm.downcallWithErrno(symbol(ffm, "mmap"), errno, long.class,
                long.class, long.class, int.class, int.class, int.class, long.class);
        this.munmap = ffm.downcall(symbol(ffm, "munmap"), int.class, long.class, long.class);
        this.ioctl = ffm.downcallWithErrno(symbol(ffm, "ioctl"), errno, int.class, int.class, long.class, long.class);
        this.close = ffm.downcall(symbol(ffm, "close"), int.class, int.class);
        this.read = ffm.downcallWithErrno(symbol(ffm, "read"), errno, long.class, int.class, long.class, long.class);
        MethodHandle getpagesize = ffm.downcall(symbol(ffm, "getpagesize"), int.class);
        try {
            this.pageSize = (int) getpagesize.invokeExact();
        } catch (Throwable e) {
            throw new ReflectiveOperationException("getpagesize: " + e, e);
        }
        // The ring's data_head / data_tail protocol (perf_event.h): a read barrier after loading data_head, a full
        // barrier between reading the records and storing data_tail. VarHandle's fences are those (Java 9+).
        Class<?> varHandle = Class.forName("java.lang.invoke.VarHandle");
        MethodType fence = MethodType.methodType(void.class);
        this.acquireFence = MethodHandles.publicLookup().findStatic(varHandle, "acquireFence", fence);
        this.fullFence = MethodHandles.publicLookup().findStatic(varHandle, "fullFence", fence);
        this.reachabilityFence = MethodHandles.publicLookup().findStatic(java.lang.ref.Reference.class,
                "reachabilityFence", MethodType.methodType(void.class, Object.class));
    }

    private static long symbol(FfmDowncalls ffm, String name) throws ReflectiveOperationException {
        long a = ffm.libc(name);
        if (a == 0) {
            throw new ReflectiveOperationException("the C library has no " + name);
        }
        return a;
    }

    /**
     * Why perf events cannot be used by this JVM at all (one line naming what is missing), or null when they may:
     * java.lang.foreign (Java 22+) and a CPU whose perf_event_open number is known.
     */
    static String missing() {
        return missing(dev.jetw.etw.JavaFeature.current(), System.getProperty("os.arch", ""));
    }

    static String missing(int javaFeature, String arch) {
        if (javaFeature < 22) {
            return "needs Java 22+ (java.lang.foreign) for perf_event_open; this JVM is Java " + javaFeature;
        }
        if (syscallNumber(arch) < 0) {
            return "perf_event_open's system call number is known here for x86_64 and aarch64 only; this CPU is " + arch;
        }
        return null;
    }

    /** SYS_perf_event_open: 298 on x86_64, 241 on aarch64 (asm-generic); -1 elsewhere. */
    static long syscallNumber(String arch) {
        String a = arch.toLowerCase(Locale.ROOT);
        if (a.equals("amd64") || a.equals("x86_64")) {
            return 298;
        }
        if (a.equals("aarch64") || a.equals("arm64")) {
            return 241;
        }
        return -1;
    }


    /** The calls, bound; fails with the reason ({@link #missing()}, or the linker's refusal). */
    static PerfCalls open() throws IOException {
        String missing = missing();
        if (missing != null) {
            throw new IOException(missing);
        }
        try {
            return new PerfCalls(syscallNumber(System.getProperty("os.arch", "")), FfmDowncalls.open());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IOException("java.lang.foreign could not bind the C library's perf calls (" + e.getMessage()
                    + "; is native access denied? run with --enable-native-access=ALL-UNNAMED)", e);
        }
    }

    /**
     * perf_event_open(attr, pid, cpu, -1, FD_CLOEXEC): the new descriptor; {@link Refused} with errno when refused.
     * {@code attr} is kept reachable until the call returned: the kernel reads it through its bare address.
     */
    int perfEventOpen(ByteBuffer attr, int pid, int cpu) throws IOException {
        long fd;
        try {
            fd = (long) syscall.invokeExact(syscallNumber, ffm.addressOf(attr), (long) pid, (long) cpu, -1L,
                    PERF_FLAG_FD_CLOEXEC);
        } catch (Throwable e) {
            throw new IOException("perf_event_open: " + e, e);
        } finally {
            keepReachable(attr);
        }
        if (fd < 0) {
            throw new Refused("perf_event_open", errno.errno());
        }
        return (int) fd;
    }

    /**
     * read(2) of an event opened with read_format {@link PerfEventAttr#FORMAT_LOST}: {@code u64 value, lost}, the
     * second the samples the kernel could not write into the ring (every one, whether a LOST record reported it yet
     * or not).
     */
    long lostSamples(int fd) throws IOException {
        ByteBuffer values = ByteBuffer.allocateDirect(16).order(java.nio.ByteOrder.nativeOrder());
        long n;
        try {
            n = (long) read.invokeExact(fd, ffm.addressOf(values), 16L);
        } catch (Throwable e) {
            throw new IOException("read: " + e, e);
        } finally {
            keepReachable(values);
        }
        if (n < 0) {
            throw new Refused("read of a perf event", errno.errno());
        }
        if (n != 16) {
            throw new IOException("read of a perf event gave " + n + " bytes, not value and lost (16)");
        }
        return values.getLong(8);
    }

    private void keepReachable(Object o) {
        try {
            reachabilityFence.invokeExact(o);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** The {@code length} bytes of {@code fd}'s ring mapped read-write (the reader stores data_tail); its address. */
    long map(int fd, long length) throws IOException {
        long at;
        try {
            at = (long) mmap.invokeExact(0L, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0L);
        } catch (Throwable e) {
            throw new IOException("mmap: " + e, e);
        }
        if (at == -1L) {
            throw new Refused("mmap of a perf ring", errno.errno());
        }
        return at;
    }

    /** A buffer over mapped memory; invalid once {@link #unmap} ran. */
    ByteBuffer memory(long address, long length) throws IOException {
        try {
            return ffm.memory(address, length);
        } catch (ReflectiveOperationException e) {
            throw new IOException("MemorySegment.reinterpret: " + e, e);
        }
    }

    void unmap(long address, long length) {
        try {
            int ignored = (int) munmap.invokeExact(address, length);
        } catch (Throwable e) {
            // the process keeps a mapping it no longer reads: nothing else is affected
        }
    }

    /** ioctl(fd, request, 0); IOException with errno when refused. */
    void ioctl(int fd, long request) throws IOException {
        int r;
        try {
            r = (int) ioctl.invokeExact(fd, request, 0L);
        } catch (Throwable e) {
            throw new IOException("ioctl: " + e, e);
        }
        if (r < 0) {
            throw new IOException("ioctl 0x" + Long.toHexString(request) + " refused: errno " + errno.errno());
        }
    }

    void close(int fd) {
        try {
            int ignored = (int) close.invokeExact(fd);
        } catch (Throwable e) {
            // closing
        }
    }

    /** A barrier after reading data_head: the records it covers are read after it. */
    void acquireFence() {
        fence(acquireFence);
    }

    /** A barrier before storing data_tail: the records are read before the kernel may reuse their space. */
    void fullFence() {
        fence(fullFence);
    }

    private static void fence(MethodHandle h) {
        try {
            h.invokeExact();
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** What a system-wide per-CPU event needs (kernel/events/core.c, perf_allow_cpu). */
    static final String PERMISSION = "a per-CPU event needs root, CAP_PERFMON (CAP_SYS_ADMIN before Linux 5.8) or"
            + " /proc/sys/kernel/perf_event_paranoid at 0 or below";

    static String errnoName(int errno) {
        switch (errno) {
            case 1:
                return " (EPERM: " + PERMISSION + ")";
            case 13:
                return " (EACCES: " + PERMISSION + ")";
            case 2:
                return " (ENOENT: this kernel has no such software event)";
            case 19:
                return " (ENODEV: the CPU is offline)";
            case 22:
                return " (EINVAL: an argument this kernel does not accept: a CPU it does not have, or, likely when"
                        + " every CPU refuses, a kernel older than 4.1, which lacks use_clockid, needed to stamp samples"
                        + " on CLOCK_MONOTONIC)";
            case 24:
                return " (EMFILE: the process has no descriptor left; see ulimit -n)";
            case 38:
                return " (ENOSYS: the kernel was built without CONFIG_PERF_EVENTS)";
            case 12:
                return " (ENOMEM)";
            default:
                return "";
        }
    }
}
