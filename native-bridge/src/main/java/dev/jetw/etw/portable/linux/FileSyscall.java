package dev.jetw.etw.portable.linux;

/**
 * The system calls whose syscalls/sys_enter_NAME and sys_exit_NAME tracepoints give a thread's file operations,
 * and the FileIo operation each one is (docs/linux-kernel-events.md, "File I/O"). Java's file APIs use these:
 * read/write (streams, RandomAccessFile, FileChannel), pread64/pwrite64 (positional FileChannel), readv/writev
 * (scattering channels), openat (every open since glibc 2.26), close, fsync (force(true)) and fdatasync
 * (force(false)); the others are there for native libraries.
 */
enum FileSyscall {
    READ("read", Op.READ, false),
    WRITE("write", Op.WRITE, false),
    PREAD64("pread64", Op.READ, true),
    PWRITE64("pwrite64", Op.WRITE, true),
    READV("readv", Op.READ, false),
    WRITEV("writev", Op.WRITE, false),
    PREADV("preadv", Op.READ, true),
    PWRITEV("pwritev", Op.WRITE, true),
    PREADV2("preadv2", Op.READ, true),
    PWRITEV2("pwritev2", Op.WRITE, true),
    OPEN("open", Op.OPEN, false),
    OPENAT("openat", Op.OPEN, false),
    OPENAT2("openat2", Op.OPEN, false),
    CREAT("creat", Op.OPEN, false),
    CLOSE("close", Op.CLOSE, false),
    FSYNC("fsync", Op.FLUSH, false),
    FDATASYNC("fdatasync", Op.FLUSH, false);

    /** What a call does to a file, whichever system call it took. */
    enum Op { READ, WRITE, OPEN, CLOSE, FLUSH }

    /** The name in sys_enter_NAME / sys_exit_NAME. */
    final String name;
    final Op op;
    /** It names the file offset (pread64, preadv, ...); the others use the file's current position. */
    final boolean positional;

    FileSyscall(String name, Op op, boolean positional) {
        this.name = name;
        this.op = op;
        this.positional = positional;
    }
}
