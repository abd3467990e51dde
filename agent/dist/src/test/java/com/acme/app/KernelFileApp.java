package com.acme.app;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * A call that waits on one file (KernelWhyIT's file I/O test): main creates FILE (256 KiB) in the folder given as
 * the first argument, opens it and waits 500 ms (the collector reads an open's path from /proc/PID/fd when it
 * decodes the open, within its 100 ms poll interval: a file held open as a database holds its files is named), then
 * calls fileRequest(), which reads the whole file (pread64), writes it back (pwrite64) and forces it to disk (fsync).
 * main is not traced, so fileRequest is a top-level call. Prints "file PATH" and "done".
 */
public final class KernelFileApp {

    public static final int SIZE = 256 << 10;

    public static void main(String[] args) throws Exception {
        Path file = Paths.get(args[0]).resolve("kernel-file.dat");
        Files.write(file, new byte[SIZE]);
        System.out.println("file " + file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            Thread.sleep(500);
            fileRequest(ch);
        }
        Files.delete(file);
        System.out.println("done");
    }

    static void fileRequest(FileChannel ch) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(SIZE);
        while (b.hasRemaining() && ch.read(b, b.position()) > 0) {
            // positional reads until the buffer is full
        }
        b.flip();
        while (b.hasRemaining()) {
            ch.write(b, b.position());
        }
        ch.force(true);
    }
}
