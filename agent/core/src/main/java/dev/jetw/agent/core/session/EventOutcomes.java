package dev.jetw.agent.core.session;

import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.SessionStats;

/**
 * What became of the events the agent emitted, one definition each (docs/agent-options.md, "Loss
 * accounting"), used by the status, the stop line and the detach reply:
 * <ul>
 * <li>written: reached the file (or the ring, or a real-time consumer);
 * <li>dropped: refused before a buffer (no buffer free, too large, log full, provider disabled);
 * <li>lost: in a buffer that could not be written (disk full, I/O error);
 * <li>in buffers: accepted, not yet written (0 once the session has stopped).
 * </ul>
 * emitted = written + in buffers + dropped + lost, exactly. The Windows backend cannot tell how many
 * events a lost buffer held (ETW reports LogBuffersLost only): there, lost is "unknown" when buffers
 * were lost, and written counts what ETW accepted.
 */
public final class EventOutcomes {

    public final long emitted;
    public final long written;
    public final long dropped;
    /** -1: unknown (Windows, with buffers lost). */
    final long lost;
    public final long inBuffers;
    final long buffersLost;
    /** The first failure to write the log file, or null. */
    public final String writeError;
    /**
     * The kernel events the session collected itself (portable backend on Linux, kernel=), counted apart from
     * the agent's: "N written, M lost; COLLECTOR LINE"; null when the session collects none.
     */
    public final String kernel;

    public EventOutcomes(ClassicProvider provider, SessionStats stats) {
        long accepted = provider.eventsWritten();
        this.dropped = provider.eventsDropped();
        this.emitted = accepted + dropped;
        this.buffersLost = stats == null ? 0 : stats.logBuffersLost();
        this.writeError = stats == null ? null : stats.lastWriteError();
        this.kernel = stats == null || stats.kernelLine() == null ? null : stats.kernelEventsWritten() + " written, "
                + stats.kernelEventsLost() + " lost (" + stats.kernelLine() + ")";
        if (stats != null && stats.eventsWritten() >= 0) {
            this.written = stats.eventsWritten();
            this.lost = stats.eventsInLostBuffers();
            this.inBuffers = Math.max(0, accepted - written - lost);
        } else {
            this.written = accepted;
            this.lost = buffersLost > 0 ? -1 : 0;
            this.inBuffers = 0;
        }
    }

    /** "W written, D dropped, L lost of E emitted" (and what is still in buffers, when any). */
    public String line() {
        return written + " events written, " + dropped + " dropped, " + lostText() + " lost of " + emitted + " emitted"
                + (inBuffers > 0 ? " (" + inBuffers + " still in buffers)" : "")
                + (kernel == null ? "" : "; kernel events: " + kernel);
    }

    public String lostText() {
        return lost >= 0 ? Long.toString(lost) : "unknown (" + buffersLost + " buffers not written)";
    }
}
