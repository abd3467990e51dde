package dev.jetw.etw.portable.linux;

import java.io.File;
import java.io.IOException;

/**
 * per_cpu/cpuN/stats of an instance:
 * <pre>
 * entries: 0            events in the buffer not read yet
 * overrun: 0            events overwritten before they were read (overwrite mode)
 * commit overrun: 0     events lost because a nested writer wrapped the whole buffer
 * bytes: 0              bytes of unread events
 * oldest event ts: ...  (seconds)
 * now ts: ...
 * dropped events: 0     events refused because the buffer was full (no-overwrite mode)
 * read events: 0        events read so far
 * </pre>
 */
final class CpuStats {

    long entries;
    long overrun;
    long commitOverrun;
    long bytes;
    long dropped;
    long read;

    private CpuStats() {
    }

    /** Events lost on this CPU so far, whichever way. */
    long lost() {
        return overrun + commitOverrun + dropped;
    }

    static CpuStats read(TraceInstance t, int cpu) throws IOException {
        return parse(TextFiles.read(new File(t.dir(), "per_cpu/cpu" + cpu + "/stats")));
    }

    /** The counters of a stats file; lines it does not know (time stamps, future counters) are skipped. */
    static CpuStats parse(String text) {
        CpuStats s = new CpuStats();
        for (String line : text.split("\n")) {
            int c = line.indexOf(':');
            long n;
            try {
                n = c < 0 ? -1 : Long.parseLong(line.substring(c + 1).trim());
            } catch (NumberFormatException e) {
                continue; // "oldest event ts:  4895.053975" and the like
            }
            switch (line.substring(0, Math.max(c, 0)).trim()) {
                case "entries": s.entries = n; break;
                case "overrun": s.overrun = n; break;
                case "commit overrun": s.commitOverrun = n; break;
                case "bytes": s.bytes = n; break;
                case "dropped events": s.dropped = n; break;
                case "read events": s.read = n; break;
                default: break;
            }
        }
        return s;
    }

    @Override
    public String toString() {
        return "entries " + entries + ", overrun " + overrun + ", commit overrun " + commitOverrun + ", dropped "
                + dropped + ", read " + read;
    }
}
