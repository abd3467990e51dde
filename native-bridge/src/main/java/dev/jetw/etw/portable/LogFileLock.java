package dev.jetw.etw.portable;

import dev.jetw.etw.EtwException;
import dev.jetw.etw.FileError;
import dev.jetw.etw.TraceFiles;
import dev.jetw.etw.Win32Error;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * One writer per log file, as ETW enforces it. Other processes are kept out by an OS file lock;
 * other sessions of this JVM by a registry of canonical paths, because FileChannel.tryLock inside
 * one JVM throws OverlappingFileLockException instead of reporting the holder.
 */
final class LogFileLock implements AutoCloseable {

    private static final Set<String> HELD = new HashSet<>();

    /** Creates a log file; tests put a full or read-only file system in its place. */
    interface Creator {
        FileChannel create(TraceFiles rules, Path path) throws IOException;
    }

    static volatile Creator creator = new Exclusive();

    /** {@link TraceFiles#createNew}; a class, not a method reference: this runs in premain, where a lambda costs ~1-5 ms. */
    private static final class Exclusive implements Creator {
        @Override
        public FileChannel create(TraceFiles rules, Path path) throws IOException {
            return rules.createNew(path);
        }
    }

    private final String key;
    private final Path path;
    private final TraceFiles rules;
    private FileChannel channel;
    private FileLock lock;
    /** This lock created the file: a start that fails removes it (a 0-byte file would refuse the retry). */
    private boolean created;
    private boolean released;

    private LogFileLock(String key, Path path, TraceFiles rules) {
        this.key = key;
        this.path = path;
        this.rules = rules;
    }

    /** Reserves {@code file} for this process's session without touching the disk. */
    static LogFileLock reserve(Path file, String function, TraceFiles rules) throws EtwException {
        try {
            return reserve(file, rules);
        } catch (IOException e) {
            throw failure(function, file.toAbsolutePath().normalize(), e);
        }
    }

    private static LogFileLock reserve(Path file, TraceFiles rules) throws IOException {
        Path abs = file.toAbsolutePath().normalize();
        if (abs.getParent() == null || abs.getFileName() == null) {
            throw new TraceFiles.RefusedException(FileError.EISDIR, Win32Error.BAD_PATHNAME, "it is the root folder");
        }
        String key = folder(abs.getParent()).resolve(abs.getFileName()).toString();
        if (isCaseInsensitiveFs()) {
            key = key.toLowerCase(Locale.ROOT);
        }
        synchronized (HELD) {
            if (!HELD.add(key)) {
                throw new TraceFiles.RefusedException(FileError.EAGAIN, "another session of this process writes it");
            }
        }
        return new LogFileLock(key, abs, rules);
    }

    /**
     * The real path of the log file's folder. A missing folder, or a file where a folder should be, is
     * StartTrace's ERROR_BAD_PATHNAME (ETW does not create folders), with the OS's ENOENT or ENOTDIR.
     */
    private static Path folder(Path parent) throws IOException {
        try {
            Path real = parent.toRealPath();
            if (!Files.isDirectory(real)) {
                throw new TraceFiles.RefusedException(FileError.ENOTDIR, Win32Error.BAD_PATHNAME, parent + " is a file, not a folder");
            }
            return real;
        } catch (FileSystemException e) {
            FileError f = FileError.of(e);
            if (f == FileError.ENOENT || f == FileError.ENOTDIR) {
                throw new TraceFiles.RefusedException(f, Win32Error.BAD_PATHNAME, "folder " + parent
                        + (f == FileError.ENOENT ? " does not exist" : ": a part of it is a file, not a folder"));
            }
            throw e;
        }
    }

    /**
     * Reserves, creates (by the rules of {@link TraceFiles}) and OS-locks {@code file}; the caller reports a
     * failure in its own terms (a start with {@link #failure}, a logger in its write error, a dump as the dump's).
     */
    static LogFileLock create(Path file, TraceFiles rules) throws IOException {
        LogFileLock l = reserve(file, rules);
        try {
            l.openChannel();
            return l;
        } catch (IOException | RuntimeException e) {
            l.close();
            throw e;
        }
    }

    /**
     * Checks the reserved path by the rules and removes a file being replaced on purpose, without
     * creating the new one (buffering mode: an old file must not pass for this session's, and a
     * refused path must be refused at start, not at the first flush).
     */
    void prepare(String function) throws EtwException {
        try {
            rules.prepare(path);
        } catch (IOException e) {
            throw failure(function, path, e);
        }
    }

    /** Creates (never truncates: see {@link TraceFiles}) and locks the reserved file (buffering mode: at its first flush). */
    void openChannel() throws IOException {
        if (channel != null) {
            return;
        }
        FileChannel ch = creator.create(rules, path);
        created = true;
        FileLock fl;
        try {
            fl = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            fl = null;
        }
        if (fl == null) {
            ch.close();
            Files.deleteIfExists(path); // created just now, by this lock
            created = false;
            throw new TraceFiles.RefusedException(FileError.EAGAIN, "another process locked it as jetw created it");
        }
        channel = ch;
        lock = fl;
    }

    /** A file failure with the code ETW would give, in the platform's words (see {@link EtwException#file}). */
    static EtwException failure(String function, Path path, IOException e) {
        return EtwException.file(function, "log file " + path, e);
    }

    FileChannel channel() {
        return channel;
    }

    Path path() {
        return path;
    }

    /** Releases the file and removes it if this lock created it: what a failed start leaves behind. */
    void discard() {
        close();
        if (created) {
            created = false;
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                // Nothing more to do: the start's own failure is what the caller reports.
            }
        }
    }

    @Override
    public void close() {
        if (released) {
            return;
        }
        released = true;
        try {
            if (lock != null) {
                lock.release();
            }
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            // Closing a file we only wrote: nothing to recover.
        }
        synchronized (HELD) {
            HELD.remove(key);
        }
    }

    private static boolean isCaseInsensitiveFs() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        return os.startsWith("windows") || os.startsWith("mac");
    }
}
