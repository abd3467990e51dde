package dev.jetw.etw.portable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A disk that fills up: a real file channel whose writes past {@code capacity} bytes fail with the
 * operating system's words "No space left on device". Writes inside the file's current size still
 * succeed (they need no new blocks), as on a real full disk: the header can still be updated.
 */
final class FailingFileSystem extends FileChannel {

    private final FileChannel real;
    private final long capacity;

    FailingFileSystem(FileChannel real, long capacity) {
        this.real = real;
        this.capacity = capacity;
    }

    private void check(long position, int length) throws IOException {
        if (position + length > Math.max(capacity, real.size())) {
            throw new IOException("No space left on device");
        }
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        check(position, src.remaining());
        return real.write(src, position);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        check(real.position(), src.remaining());
        return real.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        throw new IOException("No space left on device");
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return real.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        return real.read(dsts, offset, length);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return real.read(dst, position);
    }

    @Override
    public long position() throws IOException {
        return real.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        real.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return real.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        real.truncate(size);
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        real.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return real.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        throw new IOException("No space left on device");
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        return real.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return real.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return real.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        real.close();
    }
}
