package dev.jetw.etl;

/**
 * Damage the reader found and read around: the events it could not deliver are in no record, and
 * every other record is still delivered; or fields that contradict each other, so that what was
 * delivered cannot all be right. One line, naming the file offset.
 */
public final class EtlProblem {

    /** What kind of damage. */
    public enum Kind {
        /** The file ends inside a buffer, or holds fewer buffers than its header says. */
        TRUNCATED,
        /** A buffer whose header or record chain is inconsistent; its records from the damage on were skipped. */
        CORRUPT_BUFFER,
        /**
         * Fields that contradict each other or the file: the logfile header's times or buffer count, records
         * time-stamped outside their session or after their buffer was flushed. The records are delivered as
         * read, but the file is damaged (.etl files carry no checksum), so some of what they say is wrong.
         */
        INCONSISTENT
    }

    private final Kind kind;
    private final long offset;
    private final String message;

    public EtlProblem(Kind kind, long offset, String message) {
        this.kind = kind;
        this.offset = offset;
        this.message = message;
    }

    public Kind kind() {
        return kind;
    }

    /** File offset of the damaged buffer (or of the cut). */
    public long offset() {
        return offset;
    }

    /** One line: the kind, the offset and what was wrong. */
    public String message() {
        return message;
    }

    @Override
    public String toString() {
        return message;
    }
}
