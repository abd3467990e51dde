package dev.jetw.etw;

/** What EVENT_TRACE_PROPERTIES reports after a QUERY, FLUSH, UPDATE or STOP. */
public final class SessionStats {

    private final String sessionName;
    private final String logFile;
    private final int numberOfBuffers;
    private final int freeBuffers;
    private final long eventsLost;
    private final long buffersWritten;
    private final long logBuffersLost;
    private final long realTimeBuffersLost;
    private final long loggerThreadId;
    private long eventsWritten = -1;
    private long eventsRefused = -1;
    private long eventsInLostBuffers = -1;
    private String lastWriteError;
    private long kernelEventsWritten = -1;
    private long kernelEventsLost = -1;
    private String kernelLine;

    public SessionStats(String sessionName, String logFile, int numberOfBuffers, int freeBuffers,
                        long eventsLost, long buffersWritten, long logBuffersLost,
                        long realTimeBuffersLost, long loggerThreadId) {
        this.sessionName = sessionName;
        this.logFile = logFile;
        this.numberOfBuffers = numberOfBuffers;
        this.freeBuffers = freeBuffers;
        this.eventsLost = eventsLost;
        this.buffersWritten = buffersWritten;
        this.logBuffersLost = logBuffersLost;
        this.realTimeBuffersLost = realTimeBuffersLost;
        this.loggerThreadId = loggerThreadId;
    }

    public String sessionName() { return sessionName; }

    /** The log file, or null for a session without one. */
    public String logFile() { return logFile; }

    public int numberOfBuffers() { return numberOfBuffers; }

    public int freeBuffers() { return freeBuffers; }

    public long eventsLost() { return eventsLost; }

    public long buffersWritten() { return buffersWritten; }

    public long logBuffersLost() { return logBuffersLost; }

    public long realTimeBuffersLost() { return realTimeBuffersLost; }

    public long loggerThreadId() { return loggerThreadId; }

    /**
     * The same statistics with the outcome of every accepted event, which ETW does not report (the
     * portable backend does): see {@link #eventsWritten()}.
     */
    public SessionStats withOutcomes(long written, long refused, long inLostBuffers, String lastWriteError) {
        SessionStats s = new SessionStats(sessionName, logFile, numberOfBuffers, freeBuffers, eventsLost, buffersWritten,
                logBuffersLost, realTimeBuffersLost, loggerThreadId);
        s.eventsWritten = written;
        s.eventsRefused = refused;
        s.eventsInLostBuffers = inLostBuffers;
        s.lastWriteError = lastWriteError;
        s.kernelEventsWritten = kernelEventsWritten;
        s.kernelEventsLost = kernelEventsLost;
        s.kernelLine = kernelLine;
        return s;
    }

    /**
     * The same statistics with the kernel events a session collected itself (the portable backend on Linux),
     * counted apart from the providers' events: {@link #eventsLost()} includes the lost ones.
     */
    public SessionStats withKernel(long written, long lost, String line) {
        SessionStats s = withOutcomes(eventsWritten, eventsRefused, eventsInLostBuffers, lastWriteError);
        s.kernelEventsWritten = written;
        s.kernelEventsLost = lost;
        s.kernelLine = line;
        return s;
    }

    /** Kernel events that reached the log; -1 when the session collects none itself. */
    public long kernelEventsWritten() { return kernelEventsWritten; }

    /** Kernel events lost (overwritten before they were read, refused, in lost buffers); -1 when none are collected. Part of {@link #eventsLost()}. */
    public long kernelEventsLost() { return kernelEventsLost; }

    /** The kernel collector's state in one line (records, losses, its CPU once stopped), or null when there is none. */
    public String kernelLine() { return kernelLine; }

    /** Events that reached the log file, the in-memory ring or a real-time consumer; -1 when the backend does not know (Windows). */
    public long eventsWritten() { return eventsWritten; }

    /** Events refused before a buffer (no free buffer, log full); -1 when unknown. Part of {@link #eventsLost()}. */
    public long eventsRefused() { return eventsRefused; }

    /** Events in buffers that could not be written (disk full, I/O error); -1 when unknown. Part of {@link #eventsLost()}. */
    public long eventsInLostBuffers() { return eventsInLostBuffers; }

    /** The first failure to write the log file, in the operating system's words, or null. */
    public String lastWriteError() { return lastWriteError; }

    @Override
    public String toString() {
        return "session=" + sessionName + " file=" + logFile + " buffers=" + numberOfBuffers
                + " free=" + freeBuffers + " eventsLost=" + eventsLost + " buffersWritten=" + buffersWritten
                + " logBuffersLost=" + logBuffersLost + " realTimeBuffersLost=" + realTimeBuffersLost
                + " loggerThreadId=" + loggerThreadId;
    }
}
