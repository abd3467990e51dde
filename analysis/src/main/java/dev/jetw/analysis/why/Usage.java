package dev.jetw.analysis.why;

/**
 * One kind of evidence during a call: how many events, how many bytes (disk I/O, hard faults; 0
 * otherwise) and the time they cover inside the call (overlapping events count once), in 100 ns.
 */
public final class Usage {

    public final int count;
    public final long bytes;
    public final long time;
    /** JVM runtime events of a class that stops every thread (GC pauses, safepoints). */
    public final boolean stopsEveryThread;

    Usage(int count, long bytes, long time, boolean stopsEveryThread) {
        this.count = count;
        this.bytes = bytes;
        this.time = time;
        this.stopsEveryThread = stopsEveryThread;
    }
}
