package dev.jetw.etw.portable;

import dev.jetw.etw.KernelFlag;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;

import java.nio.file.Paths;
import java.util.EnumSet;

/**
 * Child JVM of {@link KernelCleanupTest}: starts a session with kernel flags, prints "ready", and idles with
 * the session running until the test kills it with SIGKILL (no shutdown hook, no stop).
 */
public final class KernelChild {

    private KernelChild() {
    }

    public static void main(String[] args) throws Exception {
        PortableBackend etw = new PortableBackend();
        etw.startSession(SessionConfig.builder().sessionName("kernel-child-" + ProcessIds.current())
                .logFile(Paths.get(args[0])).modes(EnumSet.of(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER))
                .kernelFlags(EnumSet.of(KernelFlag.CSWITCH, KernelFlag.DISK_IO, KernelFlag.FILE_IO)).build());
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
