package dev.jetw.etw.portable.linux;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

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

    public final long entries;
    public final long overrun;
    public final long commitOverrun;
    public final long bytes;
    public final long dropped;
    public final long read;

    CpuStats(long entries, long overrun, long commitOverrun, long bytes, long dropped, long read) {
        this.entries = entries;
        this.overrun = overrun;
        this.commitOverrun = commitOverrun;
        this.bytes = bytes;
        this.dropped = dropped;
        this.read = read;
    }

    /** Events lost on this CPU so far, whichever way. */
    public long lost() {
        return overrun + commitOverrun + dropped;
    }

    public static CpuStats read(TraceInstance t, int cpu) throws IOException {
        return parse(TextFiles.read(new File(t.dir(), "per_cpu/cpu" + cpu + "/stats")));
    }

    public static CpuStats parse(String text) {
        long entries = 0;
        long overrun = 0;
        long commitOverrun = 0;
        long bytes = 0;
        long dropped = 0;
        long read = 0;
        for (String line : text.split("\n")) {
            int c = line.indexOf(':');
            if (c < 0) {
                continue;
            }
            String k = line.substring(0, c).trim();
            String v = line.substring(c + 1).trim();
            if (v.isEmpty() || v.indexOf('.') >= 0) {
                continue;
            }
            long n;
            try {
                n = Long.parseLong(v);
            } catch (NumberFormatException e) {
                continue;
            }
            if (k.equals("entries")) {
                entries = n;
            } else if (k.equals("overrun")) {
                overrun = n;
            } else if (k.equals("commit overrun")) {
                commitOverrun = n;
            } else if (k.equals("bytes")) {
                bytes = n;
            } else if (k.equals("dropped events")) {
                dropped = n;
            } else if (k.equals("read events")) {
                read = n;
            }
        }
        return new CpuStats(entries, overrun, commitOverrun, bytes, dropped, read);
    }

    @Override
    public String toString() {
        return "entries " + entries + ", overrun " + overrun + ", commit overrun " + commitOverrun + ", dropped "
                + dropped + ", read " + read;
    }
}
