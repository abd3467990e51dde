package dev.jetw.analysis.why;

/**
 * The file I/O of one call's thread during the call (FileIo Read, Write and Flush paired with their OpEnd by
 * IrpPtr): how many of each, the bytes read and written (OpEnd's ExtraInfo: what was transferred), the time the
 * operations cover inside the call (overlapping ones count once; 100 ns), and the file whose operations covered
 * most of it. Times are 0 when the trace has no OpEnd (file_io_init without file_io): then bytes are those asked.
 */
public final class FileIoUsage {

    public final int reads;
    public final int writes;
    public final int flushes;
    public final long bytesRead;
    public final long bytesWritten;
    public final long time;
    /** The file most waited on (its FileIo name; "FileObject 0x…" when the trace names it nowhere), null without operations. */
    public final String mostWaitedOn;
    /** The time its operations cover inside the call, and how many there were. */
    public final long mostWaitedTime;
    public final int mostWaitedOperations;

    FileIoUsage(int reads, int writes, int flushes, long bytesRead, long bytesWritten, long time, String mostWaitedOn,
                long mostWaitedTime, int mostWaitedOperations) {
        this.reads = reads;
        this.writes = writes;
        this.flushes = flushes;
        this.bytesRead = bytesRead;
        this.bytesWritten = bytesWritten;
        this.time = time;
        this.mostWaitedOn = mostWaitedOn;
        this.mostWaitedTime = mostWaitedTime;
        this.mostWaitedOperations = mostWaitedOperations;
    }

    public int count() {
        return reads + writes + flushes;
    }
}
