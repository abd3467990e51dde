package dev.jetw.etw;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The operating system's id of the calling thread, where Java can learn it without native code: on
 * Linux (3.17+) the {@code /proc/thread-self} symbolic link names {@code <pid>/task/<tid>}, so a thread
 * reads its own tid. Costs one readlink(2) and a few small objects: call it once per thread, never per
 * event.
 *
 * <p>The link is read with {@link Files#readSymbolicLink}, never through {@code File.getCanonicalFile()}:
 * Java 8 caches canonical paths for 30 s ({@code sun.io.useCanonCaches}), keyed by the path's text, so
 * every thread would be handed the tid of the first one that asked.
 *
 * <p>A virtual thread has no OS thread of its own: what this returns for one is the carrier it happens to
 * run on now, which changes; callers must not record it as the virtual thread's id.
 */
public final class OsThreadId {

    private static final Path THREAD_SELF = Paths.get("/proc/thread-self");

    private OsThreadId() {
    }

    /** The calling thread's OS thread id, or 0 where it cannot be read (not Linux, no procfs). */
    public static int current() {
        try {
            Path target = Files.readSymbolicLink(THREAD_SELF);
            return Integer.parseInt(target.getFileName().toString());
        } catch (IOException | UnsupportedOperationException | SecurityException | NumberFormatException e) {
            return 0;
        }
    }
}
