package dev.jetw.samples.orders;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The order journal: one line per accepted order, appended and forced to disk before the client gets
 * its answer (so on Windows each order shows kernel FileIo write and DiskIo events). Writers serialise
 * on the journal, like a real write-ahead log.
 */
public final class Journal implements Closeable {
    private final Path file;
    private final FileChannel channel;
    private final boolean sync;
    private long lines;

    /** Opens {@code file} empty (truncates it); {@code sync} forces every line to disk. */
    public Journal(Path file, boolean sync) throws IOException {
        this.file = file;
        this.sync = sync;
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
    }

    /** Appends one record and returns its sequence number (1-based). */
    public synchronized long append(Order order, long totalCents, String authorisation) throws IOException {
        long sequence = lines + 1;
        String line = sequence + "\t" + order.id() + "\t" + order.customer() + "\t" + order.sku() + "\t"
                + order.quantity() + "\t" + totalCents + "\t" + authorisation + "\n";
        ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
        if (sync) {
            channel.force(false);
        }
        lines = sequence;
        return sequence;
    }

    public synchronized long lines() {
        return lines;
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized void close() throws IOException {
        channel.close();
    }
}
