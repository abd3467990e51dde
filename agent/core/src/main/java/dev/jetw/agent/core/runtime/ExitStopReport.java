package dev.jetw.agent.core.runtime;

/**
 * What a runtime event source's stop at JVM exit waited for, one line, and whether it delivered everything the
 * JVM had recorded ({@code complete}) or gave some events up to keep the exit short (then the line says which and
 * it goes into the agent's exit line too).
 */
public final class ExitStopReport {

    public final String line;
    public final boolean complete;

    public ExitStopReport(String line, boolean complete) {
        this.line = line;
        this.complete = complete;
    }

    @Override
    public String toString() {
        return line;
    }
}
