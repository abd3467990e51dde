package dev.jetw.etl;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A file that cannot be read as an .etl file at all (missing, not an .etl file, compressed).
 * The message is one line that names the file and, where it applies, the byte offset.
 */
public final class EtlFileException extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;

    public EtlFileException(Path file, long offset, String problem) {
        super(file + (offset >= 0 ? " at offset 0x" + Long.toHexString(offset) : "") + ": " + problem);
        this.file = file;
        this.offset = offset;
    }

    public EtlFileException(Path file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
        this.offset = -1;
    }

    public Path file() {
        return file;
    }

    /** Byte offset in the file where the problem was found, or -1 when it concerns the whole file. */
    public long offset() {
        return offset;
    }
}
