package dev.jetw.etw.portable;

import dev.jetw.etw.TraceFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a running session held at a dump request (jcmd JFR.dump's counterpart), taken by the logger thread
 * ({@link LogSink#snapshot}) and written to a new .etl by the thread that asked ({@link PortableSession#dump}).
 * The writing is not the logger's: while it copies a large file the writers' full buffers would wait for the
 * logger and the pool would run dry (issue 27: five dumps dropped a tenth of a loaded session's events).
 */
interface SessionDump {

    /** Writes the snapshot to {@code target}, created by {@code rules}; a target it created and could not finish is removed. */
    void writeTo(Path target, TraceFiles rules) throws IOException;

    /** The snapshot is no longer needed (written or not); the logger stops keeping anything for it. */
    default void close() {
    }

    /** Removes a dump file this dump created but could not finish; {@code failure} keeps the first error. */
    static IOException removePartial(Path target, IOException failure) {
        try {
            Files.deleteIfExists(target);
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
        return failure;
    }
}
