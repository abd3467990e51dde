package dev.jetw.etw;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.StandardCopyOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;

/**
 * How jetw creates the files it writes (trace files, dumps, reply files), the rule of
 * docs/agent-options.md "Trace files":
 * <ul>
 * <li>the last path component is never followed when it is a symbolic link (dangling or not);
 * <li>an existing path that is not a regular file, or a regular file with more than one hard link, is refused;
 * <li>an existing regular file is replaced only with {@code overwrite=true}: it is deleted and a new
 *     file created, so the old file's inode (and anything else linked to it) is never truncated; a file
 *     some process holds a lock on (a running session's, see {@link LockHolders}) is never replaced;
 * <li>the new file is created exclusively (O_CREAT|O_EXCL, which never follows a link) with the
 *     permissions asked for, owner-only ({@code 600}) by default, on file systems with POSIX permissions.
 * </ul>
 * The checks and the creation are separate system calls; what makes the whole race-free is that no
 * step after a check opens an existing file: the removal unlinks a name, the creation is exclusive, and
 * a reply into the tool's empty file is a new file renamed over it (docs/agent-options.md "Trace files").
 */
public final class TraceFiles {

    /** The default permissions of a new file: read and write for its owner only. */
    public static final String OWNER_ONLY = "600";

    /**
     * Tests only: runs after the checks of a path and before it is removed, created or replaced, so a
     * test can swap the path in exactly the window an attacker would use.
     */
    static volatile java.util.function.Consumer<Path> afterCheck = new NoCheckHook();

    /** The seam's default: nothing (a class, not a lambda: this class loads in premain, where a lambda costs ~1-5 ms). */
    private static final class NoCheckHook implements java.util.function.Consumer<Path> {
        @Override
        public void accept(Path p) {
        }
    }

    private final boolean overwrite;
    private final Set<PosixFilePermission> permissions;

    public TraceFiles(boolean overwrite, String permissions) {
        this.overwrite = overwrite;
        this.permissions = parsePermissions(permissions);
    }

    /** The rules of a session's configuration (overwrite=, filePermissions=). */
    public static TraceFiles of(SessionConfig config) {
        return new TraceFiles(config.overwrite(), config.filePermissions());
    }

    /**
     * A path jetw refused to write: why, in jetw's words, the errno the OS would give for it (O_EXCL's
     * EEXIST, O_NOFOLLOW's ELOOP, a held lock's EAGAIN) and the Win32 code the backend reports.
     */
    public static final class RefusedException extends IOException {
        private static final long serialVersionUID = 1L;
        private final FileError error;
        private final int win32;

        public RefusedException(FileError error, int win32, String why) {
            super(why);
            this.error = error;
            this.win32 = win32;
        }

        public RefusedException(FileError error, String why) {
            this(error, error.win32(), why);
        }

        public FileError error() {
            return error;
        }

        public int win32() {
            return win32;
        }
    }

    /**
     * Checks {@code path} against the rule and, with overwrite=true, removes the existing regular file;
     * afterwards the path does not exist (unless someone creates it before {@link #createNew}).
     */
    public void prepare(Path path) throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            afterCheck.accept(path);
            return;
        }
        if (a.isSymbolicLink()) {
            throw new RefusedException(FileError.ELOOP, "it is a symbolic link");
        }
        if (!a.isRegularFile()) {
            throw new RefusedException(a.isDirectory() ? FileError.EISDIR : FileError.EEXIST, "it exists and is not a regular file");
        }
        int links = linkCount(path);
        if (links > 1) {
            throw new RefusedException(FileError.EEXIST, "it has " + links + " hard links; jetw does not replace a file linked elsewhere");
        }
        if (!overwrite) {
            throw new RefusedException(FileError.EEXIST, "it exists");
        }
        String holder = LockHolders.holder(path);
        if (holder != null) {
            throw new RefusedException(FileError.EAGAIN, "it is locked by " + holder);
        }
        afterCheck.accept(path);
        // Whatever is at the path now (even if swapped since the check), unlink removes a name only: the
        // data of a file linked elsewhere or of a link's target is never touched. createNew's O_EXCL
        // then refuses anything that appeared in the meantime.
        Files.delete(path);
    }

    /** {@link #prepare} then creates {@code path} exclusively, opened for reading and writing. */
    public FileChannel createNew(Path path) throws IOException {
        prepare(path);
        Set<OpenOption> options = new HashSet<>(Arrays.<OpenOption>asList(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS));
        boolean posix = isPosix(path);
        FileChannel channel;
        try {
            channel = posix ? FileChannel.open(path, options, attribute(PosixFilePermissions.fromString("rw-------")))
                    : FileChannel.open(path, options);
        } catch (FileAlreadyExistsException e) {
            throw new RefusedException(FileError.EEXIST, "it was created by someone else while jetw created it");
        }
        if (posix) {
            try {
                // Created owner-only whatever the umask; widened afterwards only when asked for.
                Files.setPosixFilePermissions(path, permissions);
            } catch (IOException | RuntimeException e) {
                channel.close();
                Files.deleteIfExists(path); // created just now: a failure leaves nothing behind
                throw e;
            }
        }
        return channel;
    }

    /**
     * Copies {@code source} (a log file being written) to the new file {@code target}, created by
     * these rules: a dump of a file session.
     */
    public void copyNew(Path source, Path target) throws IOException {
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
             FileChannel out = createNew(target)) {
            long size = in.size();
            long done = 0;
            while (done < size) {
                done += in.transferTo(done, size - done, out);
            }
        }
    }

    /**
     * Writes a short reply into {@code path} by the same rule, except that an existing empty regular
     * file with one link (the file the attach tool created for the reply) is written into.
     */
    public void writeReply(Path path, byte[] bytes) throws IOException {
        BasicFileAttributes a = null;
        try {
            a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            // created below
        }
        if (a == null || !a.isRegularFile() || a.size() != 0 || linkCount(path) != 1) {
            try (FileChannel c = createNew(path)) {
                write(c, bytes);
            }
            return;
        }
        // The tool's empty file. Opening it to write would write into whatever the path names at the
        // open (a hard link to someone's file swapped in after the check): the reply goes into a new
        // file of the same folder, renamed over the path, which replaces a name and writes into nothing.
        afterCheck.accept(path);
        Path temporary = path.resolveSibling("." + path.getFileName() + "." + UnpredictableBytes.hex(8) + ".tmp");
        try {
            try (FileChannel c = createNew(temporary)) {
                write(c, bytes);
            }
            Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static void write(FileChannel c, byte[] bytes) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            c.write(b);
        }
    }

    private static FileAttribute<Set<PosixFilePermission>> attribute(Set<PosixFilePermission> p) {
        return PosixFilePermissions.asFileAttribute(p);
    }

    private static boolean isPosix(Path path) {
        Path dir = path.toAbsolutePath().getParent();
        return dir != null && dir.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static int linkCount(Path path) {
        try {
            Object n = Files.getAttribute(path, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
            return n instanceof Number ? ((Number) n).intValue() : 1;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return 1; // no link count on this file system (Windows: see docs/windows.md)
        }
    }

    /** A char test, not a regex: this runs in premain, where a first regex costs ~10 ms (BENCHMARKS.md §15). */
    private static boolean isOctalDigit(char c) {
        return c >= '0' && c <= '7';
    }

    /**
     * {@code filePermissions=}: three octal digits, owner first (600, 640, 644, 660, 664); the owner must
     * keep read and write, and no execute bit or write for others is allowed.
     *
     * @throws ConfigException naming the option when the value is not allowed
     */
    public static Set<PosixFilePermission> parsePermissions(String value) {
        String v = value == null ? OWNER_ONLY : value.trim();
        String allowed = "allowed: three octal digits with the owner's read and write, no execute bit and no write for"
                + " others: 600 (default), 640, 644, 660, 664";
        if (v.length() != 3 || !isOctalDigit(v.charAt(0)) || !isOctalDigit(v.charAt(1)) || !isOctalDigit(v.charAt(2))) {
            throw new ConfigException("filePermissions", v, allowed);
        }
        int bits = Integer.parseInt(v, 8);
        if ((bits & 0600) != 0600 || (bits & 0111) != 0 || (bits & 0002) != 0) {
            throw new ConfigException("filePermissions", v, allowed);
        }
        Set<PosixFilePermission> p = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE,
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE};
        for (int i = 0; i < order.length; i++) {
            if ((bits & (0400 >> i)) != 0) {
                p.add(order[i]);
            }
        }
        return p;
    }

    /**
     * The Win32 code ETW would give for a failed file operation: a refusal's own, else the code of the
     * table of file errors ({@link FileError}: ERROR_DISK_FULL for ENOSPC, ERROR_WRITE_PROTECT for EROFS,
     * ERROR_ACCESS_DENIED only for EACCES and EPERM ...), else ERROR_WRITE_FAULT (29).
     */
    public static int win32Code(IOException e) {
        if (e instanceof RefusedException) {
            return ((RefusedException) e).win32();
        }
        if (e.getCause() instanceof EtwException) {
            return ((EtwException) e.getCause()).code();
        }
        FileError f = FileError.of(e);
        return f == null ? Win32Error.WRITE_FAULT : f.win32();
    }

    /**
     * The operating system's own words for a failure ("No space left on device"), without the path; a
     * refusal's reason. Where the JDK dropped the words (EACCES, ENOENT, EEXIST) they are the table's.
     */
    public static String cause(IOException e) {
        if (e instanceof RefusedException) {
            return e.getMessage();
        }
        if (e instanceof FileSystemException) {
            String reason = ((FileSystemException) e).getReason();
            FileError f = FileError.of(e);
            return reason != null ? reason : f != null ? f.text() : e.getClass().getSimpleName();
        }
        String m = e.getMessage();
        return m == null || m.isEmpty() ? e.getClass().getSimpleName() : m;
    }
}
