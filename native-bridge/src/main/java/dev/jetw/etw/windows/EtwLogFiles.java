package dev.jetw.etw.windows;

import dev.jetw.etw.EtwException;
import dev.jetw.etw.TraceFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * What jetw checks before ETW creates a log file (docs/windows.md, "Trace files"): ETW itself opens
 * the path it is given, so the link, hard-link and existing-file rules of {@link TraceFiles} are
 * applied here, by name, just before StartTrace or the UPDATE that names a new file.
 */
final class EtwLogFiles {

    private EtwLogFiles() {
    }

    /** Refuses {@code file} by the rules (and removes a file replaced on purpose); null passes. */
    static void check(String function, TraceFiles rules, String file) throws EtwException {
        if (file == null) {
            return;
        }
        Path path = Paths.get(file);
        try {
            rules.prepare(path);
        } catch (IOException e) {
            throw new EtwException(function, TraceFiles.win32Code(e), "log file " + file + ": " + TraceFiles.cause(e));
        }
    }

    /** Copies a file session's log (after a flush) to the new file {@code target}: its dump. */
    static void copy(String function, String logFile, Path target) throws EtwException {
        try {
            new TraceFiles(false, TraceFiles.OWNER_ONLY).copyNew(Paths.get(logFile), target);
        } catch (IOException e) {
            throw new EtwException(function, TraceFiles.win32Code(e), "dump of " + logFile + " to " + target + ": "
                    + TraceFiles.cause(e));
        }
    }
}
