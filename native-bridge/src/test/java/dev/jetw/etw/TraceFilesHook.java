package dev.jetw.etw;

import java.nio.file.Path;
import java.util.function.Consumer;

/** Tests of other packages: reaches {@link TraceFiles}' package-private hook (the window after a path's checks). */
public final class TraceFilesHook {

    private TraceFilesHook() {
    }

    /** Runs {@code hook} after each path's checks, before it is created; {@link #reset} removes it. */
    public static void afterCheck(Consumer<Path> hook) {
        TraceFiles.afterCheck = hook;
    }

    public static void reset() {
        TraceFiles.afterCheck = p -> { };
    }
}
