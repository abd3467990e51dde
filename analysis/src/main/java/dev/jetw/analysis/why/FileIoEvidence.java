package dev.jetw.analysis.why;

import java.util.HashMap;
import java.util.Map;

/** What pass two found of one call's file operations: per kind, bytes, and the time each file's operations cover. */
final class FileIoEvidence {

    static final int READ = 67;
    static final int WRITE = 68;
    static final int FLUSH = 73;

    private final Intervals all = new Intervals();
    private final Map<Long, Intervals> byFile = new HashMap<>();
    private int reads;
    private int writes;
    private int flushes;
    private long bytesRead;
    private long bytesWritten;

    /** An operation of kind {@code type} on {@code fileObject} from {@code from} to {@code to}, moving {@code bytes}. */
    void add(int type, long fileObject, long from, long to, long bytes) {
        all.add(from, to);
        byFile.computeIfAbsent(fileObject, f -> new Intervals()).add(from, to);
        if (type == READ) {
            reads++;
            bytesRead += Math.max(0, bytes);
        } else if (type == WRITE) {
            writes++;
            bytesWritten += Math.max(0, bytes);
        } else {
            flushes++;
        }
    }

    /** The usage inside [start, end], the most waited-on file named by {@code names} (FileObject → name). */
    FileIoUsage usage(long start, long end, Map<Long, String> names) {
        long best = -1;
        long bestFile = 0;
        int bestOps = 0;
        for (Map.Entry<Long, Intervals> e : byFile.entrySet()) {
            long t = e.getValue().coveredWithin(start, end);
            int ops = e.getValue().size();
            // The longest; on a tie (e.g. no OpEnd: every time 0) the one with the most operations, then the lowest object.
            if (t > best || t == best && (ops > bestOps || ops == bestOps && Long.compareUnsigned(e.getKey(), bestFile) < 0)) {
                best = t;
                bestFile = e.getKey();
                bestOps = ops;
            }
        }
        String name = null;
        if (best >= 0) {
            name = names.get(bestFile);
            if (name == null) {
                name = "FileObject 0x" + Long.toHexString(bestFile);
            }
        }
        return new FileIoUsage(reads, writes, flushes, bytesRead, bytesWritten, all.coveredWithin(start, end), name,
                Math.max(best, 0), bestOps);
    }
}
