package dev.jetw.analysis.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Text per thread, given out thread by thread at the end, while it is produced interleaved: each
 * thread's text is kept in memory up to {@link #CHUNK} characters, then appended to one temporary file
 * as a chunk (the thread remembers where). Memory: a chunk per thread plus 16 bytes per chunk written.
 */
final class ThreadSpool implements AutoCloseable {

    static final int CHUNK = 16 * 1024;

    private static final class Text {
        final StringBuilder pending = new StringBuilder();
        final List<long[]> chunks = new ArrayList<>(); // {offset, length} in the spool file
    }

    private final Map<Long, Text> threads = new TreeMap<>();
    private final Map<Long, Text> byKey = new HashMap<>();
    private Path file;
    private RandomAccessFile spool;

    /** The builder to append to for thread {@code key}; call {@link #maybeSpill} after appending. */
    StringBuilder text(long key) {
        Text t = byKey.get(key);
        if (t == null) {
            t = new Text();
            byKey.put(key, t);
            threads.put(key, t);
        }
        return t.pending;
    }

    void maybeSpill(long key) throws IOException {
        Text t = byKey.get(key);
        if (t.pending.length() < CHUNK) {
            return;
        }
        if (spool == null) {
            file = Files.createTempFile("jetw-tree", ".txt");
            spool = new RandomAccessFile(file.toFile(), "rw");
        }
        byte[] bytes = t.pending.toString().getBytes(StandardCharsets.UTF_8);
        long at = spool.length();
        spool.seek(at);
        spool.write(bytes);
        t.chunks.add(new long[] {at, bytes.length});
        t.pending.setLength(0);
    }

    boolean hasThread(long key) {
        return byKey.containsKey(key);
    }

    boolean isEmpty() {
        return threads.isEmpty();
    }

    /** Thread keys in ascending order. */
    Iterable<Long> keys() {
        return threads.keySet();
    }

    /** Prints thread {@code key}'s text, in the order it was appended. */
    void print(long key, PrintStream out) throws IOException {
        Text t = threads.get(key);
        for (long[] c : t.chunks) {
            byte[] bytes = new byte[(int) c[1]];
            spool.seek(c[0]);
            spool.readFully(bytes);
            out.print(new String(bytes, StandardCharsets.UTF_8));
        }
        out.print(t.pending);
    }

    @Override
    public void close() throws IOException {
        if (spool != null) {
            spool.close();
            Files.deleteIfExists(file);
        }
    }
}
