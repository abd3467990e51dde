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

    @Override
    public String toString() {
        return "session=" + sessionName + " file=" + logFile + " buffers=" + numberOfBuffers
                + " free=" + freeBuffers + " eventsLost=" + eventsLost + " buffersWritten=" + buffersWritten
                + " logBuffersLost=" + logBuffersLost + " realTimeBuffersLost=" + realTimeBuffersLost
                + " loggerThreadId=" + loggerThreadId;
    }
}
