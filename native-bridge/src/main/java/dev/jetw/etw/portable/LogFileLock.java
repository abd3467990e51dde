package dev.jetw.etw.portable;

import dev.jetw.etw.EtwException;
import dev.jetw.etw.Win32Error;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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

    private final String key;
    private final Path path;
    private FileChannel channel;
    private FileLock lock;
    private boolean released;

    private LogFileLock(String key, Path path) {
        this.key = key;
        this.path = path;
    }

    /** Reserves {@code file} for this process's session without touching the disk. */
    static LogFileLock reserve(Path file, String function) throws EtwException {
        Path abs = file.toAbsolutePath().normalize();
        Path parent = abs.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            // StartTrace's answer to a missing folder (ETW does not create it).
            throw new EtwException(function, Win32Error.BAD_PATHNAME,
                    "log file " + abs + ": folder " + parent + " does not exist (it is not created)");
        }
        String key;
        try {
            key = parent.toRealPath().resolve(abs.getFileName()).toString();
        } catch (IOException e) {
            throw new EtwException(function, Win32Error.PATH_NOT_FOUND, "log file " + abs + ": " + e.getMessage());
        }
        if (isCaseInsensitiveFs()) {
            key = key.toLowerCase(Locale.ROOT);
        }
        synchronized (HELD) {
            if (!HELD.add(key)) {
                throw new EtwException(function, Win32Error.SHARING_VIOLATION,
                        "log file " + abs + " is already written by another session of this process");
            }
        }
        return new LogFileLock(key, abs);
    }

    /** Reserves, creates (truncating only once locked) and OS-locks {@code file}. */
    static LogFileLock open(Path file, String function) throws EtwException {
        LogFileLock l = reserve(file, function);
        try {
            l.openChannel(function);
            return l;
        } catch (EtwException e) {
            l.close();
            throw e;
        }
    }

    /** Creates and locks the reserved file (buffering mode does this at its first flush). */
    void openChannel(String function) throws EtwException {
        if (channel != null) {
            return;
        }
        try {
            FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock fl;
            try {
                fl = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                fl = null;
            }
            if (fl == null) {
                ch.close();
                throw new EtwException(function, Win32Error.SHARING_VIOLATION,
                        "log file " + path + " is locked by another process writing it");
            }
            ch.truncate(0);
            channel = ch;
            lock = fl;
        } catch (IOException e) {
            throw new EtwException(function, Win32Error.ACCESS_DENIED, "cannot open log file " + path + ": " + e);
        }
    }

    FileChannel channel() {
        return channel;
    }

    Path path() {
        return path;
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
