package dev.jetw.bench.kernel;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * The worst case for {@code kernel=file_io,file_io_init} (BENCHMARKS.md §18): one thread reading 4 KiB at
 * pseudo-random offsets of a 16 MiB file it keeps open (from the page cache: each read is a system call and little
 * else), with a write and an fsync every 1,000 reads, for SECONDS seconds; prints "ops N" (reads + writes +
 * fsyncs). {@code FileIoLoad DIR SECONDS}.
 */
public final class FileIoLoad {

    private FileIoLoad() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Paths.get(args[0]).resolve("file-io-load-" + ProcessHandle.current().pid() + ".dat");
        long seconds = Long.parseLong(args[1]);
        int size = 16 << 20;
        Files.write(file, new byte[size]);
        long ops = 0;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocateDirect(4096);
            long x = 12345;
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            while (System.nanoTime() < end) {
                for (int i = 0; i < 1000; i++) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                    b.clear();
                    ch.read(b, ((x >>> 33) % (size / 4096)) * 4096);
                }
                b.flip();
                ch.write(b, 0);
                ch.force(false);
                ops += 1002;
            }
        } finally {
            Files.delete(file);
        }
        System.out.println("ops " + ops);
    }
}
