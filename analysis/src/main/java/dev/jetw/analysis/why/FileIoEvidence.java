package dev.jetw.analysis.why;

import java.util.HashMap;
import java.util.Map;

/**
 * What pass two found of one call's file operations: per kind, bytes, and the time each file's operations cover.
 * A file is its FileKey (shared by all its opens, as Windows' names are indexed), so two opens of one file add up.
 */
final class FileIoEvidence {

    static final int READ = 67;
    static final int WRITE = 68;
    static final int FLUSH = 73;

    private final Intervals all = new Intervals();
    private final Map<Long, Intervals> byFile = new HashMap<>();
    /** A FileObject of each file (the first seen): the name when only a Create's OpenPath named it. */
    private final Map<Long, Long> objectOfFile = new HashMap<>();
    private int reads;
    private int writes;
    private int flushes;
    private long bytesRead;
    private long bytesWritten;

    /**
     * An operation of kind {@code type} on {@code fileKey} through {@code fileObject} from {@code from} to {@code to},
     * moving {@code bytes}.
     */
    void add(int type, long fileKey, long fileObject, long from, long to, long bytes) {
        all.add(from, to);
        byFile.computeIfAbsent(fileKey, f -> new Intervals()).add(from, to);
        objectOfFile.putIfAbsent(fileKey, fileObject);
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

    /**
     * The usage inside [start, end], the most waited-on file named by {@code byKey} (FileKey → name: Name, FileRundown)
     * or else by {@code byObject} (FileObject → a Create's OpenPath).
     */
    FileIoUsage usage(long start, long end, Map<Long, String> byKey, Map<Long, String> byObject) {
        long best = -1;
        long bestFile = 0;
        int bestOps = 0;
        for (Map.Entry<Long, Intervals> e : byFile.entrySet()) {
            long t = e.getValue().coveredWithin(start, end);
            int ops = e.getValue().size();
            // The longest; on a tie (e.g. no OpEnd: every time 0) the one with the most operations, then the lowest key.
            if (t > best || t == best && (ops > bestOps || ops == bestOps && Long.compareUnsigned(e.getKey(), bestFile) < 0)) {
                best = t;
                bestFile = e.getKey();
                bestOps = ops;
            }
        }
        String name = null;
        if (best >= 0) {
            long object = objectOfFile.get(bestFile);
            name = byKey.get(bestFile);
            if (name == null) {
                name = byObject.get(object);
            }
            if (name == null) {
                name = "FileObject 0x" + Long.toHexString(object);
            }
        }
        return new FileIoUsage(reads, writes, flushes, bytesRead, bytesWritten, all.coveredWithin(start, end), name,
                Math.max(best, 0), bestOps);
    }
}
