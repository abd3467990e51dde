package dev.jetw.etw.portable.linux;

import java.io.File;
import java.io.IOException;

/** What tests outside this package may reach of tracefs: the root, its files, and a failure to inject at start. */
public final class TracefsTestAccess {

    private TracefsTestAccess() {
    }

    /** The tracefs root the collector would use, or null. */
    public static File root() {
        return TracefsLocator.find();
    }

    /** A tracefs file's text (tracefs header files answer only one read at offset 0: Files.readAllBytes gets a byte). */
    public static String read(File file) throws IOException {
        return TextFiles.read(file);
    }

    /** Makes the next collector starts fail once their instances exist and trace ({@code null}: no more). */
    public static void failAfterTracingOn(final String message) {
        TracefsSession.afterTracingOn = message == null ? null : new Runnable() {
            @Override
            public void run() {
                throw new IllegalStateException(message);
            }
        };
    }

    /** As {@link #failAfterTracingOn} with an Error, as PollerThreads.start gives when no native thread is left. */
    public static void failAfterTracingOnWithError(final String message) {
        TracefsSession.afterTracingOn = new Runnable() {
            @Override
            public void run() {
                throw new OutOfMemoryError("unable to create native thread: " + message);
            }
        };
    }

    /** A poller that reads every {@code millis} into scheduler rings of {@code kbPerCpu} KiB (0, 0: the defaults). */
    public static void slowPoller(long millis, int kbPerCpu) {
        TracefsSession.testPollMillis = millis;
        TracefsSession.testSchedKb = kbPerCpu;
    }
}
