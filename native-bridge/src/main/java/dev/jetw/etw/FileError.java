package dev.jetw.etw;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;

/**
 * The one table of file errors (docs/portable-backend.md "File errors"): each operating-system error
 * jetw meets writing its files, by its errno name, with the operating system's words (strerror: what
 * Java's {@link FileSystemException#getReason()} and its I/O exceptions carry), the Win32 code ETW gives
 * for the same condition, and what to do on Linux and macOS. On Windows messages use the Win32 code
 * and {@link Win32Error#advice}; elsewhere the errno name, the OS's words and this advice
 * ({@link EtwException#file}).
 */
public enum FileError {
    EACCES(Win32Error.ACCESS_DENIED, "The account running the JVM may not create or write files there: choose a folder"
            + " it may write, or grant it write permission on this one", "Permission denied"),
    EPERM(Win32Error.ACCESS_DENIED, "The file system or a security policy refuses it (an immutable or append-only file,"
            + " SELinux or AppArmor, a container's limits): choose another folder", "Operation not permitted"),
    ENOSPC(Win32Error.DISK_FULL, "The file system is full: free space on it (df shows what is left), or choose a folder"
            + " on another file system", "No space left on device", "There is not enough space on the disk"),
    EDQUOT(Win32Error.DISK_FULL, "The account's disk quota on that file system is used up: free space, or choose a"
            + " folder on another file system", "Disk quota exceeded", "Disc quota exceeded"),
    EFBIG(Win32Error.FILE_TOO_LARGE, "The file reached the largest size the file system or the process's limit"
            + " (ulimit -f) allows: set maxFileSize=, or use mode=newfile", "File too large"),
    EROFS(Win32Error.WRITE_PROTECT, "The file system is mounted read-only: choose a folder on a writable one",
            "Read-only file system"),
    ENOENT(Win32Error.PATH_NOT_FOUND, "Create the folder first (jetw does not create folders), or choose one on a"
            + " file system that holds files (not /proc or /sys)", "No such file or directory"),
    ENOTDIR(Win32Error.PATH_NOT_FOUND, "A part of the path that should be a folder is a file: correct the path",
            "Not a directory"),
    EISDIR(Win32Error.FILE_EXISTS, "The path names a folder: name a file inside it (.../jetw.etl)", "Is a directory"),
    EEXIST(Win32Error.FILE_EXISTS, "jetw does not replace an existing file: choose a new name, or set overwrite=true"
            + " to replace a regular file (never a link or a file with several hard links)", "File exists"),
    ELOOP(Win32Error.CANT_ACCESS_FILE, "jetw never writes through a symbolic link: name the file itself",
            "Too many levels of symbolic links"),
    /** What fcntl(F_SETLK) says when another process holds the lock: another session writes the file. */
    EAGAIN(Win32Error.SHARING_VIOLATION, "Another session writes this file and holds its lock (overwrite=true never"
            + " replaces it): choose another file, or stop that session first", "Resource temporarily unavailable"),
    ENAMETOOLONG(Win32Error.INVALID_NAME, "A part of the path is longer than the file system allows (usually 255"
            + " bytes): choose a shorter name", "File name too long"),
    EMFILE(Win32Error.TOO_MANY_OPEN_FILES, "The process has used all its file descriptors: raise its limit (ulimit -n)",
            "Too many open files"),
    ENFILE(Win32Error.TOO_MANY_OPEN_FILES, "The system has used all its open files: raise fs.file-max, or close"
            + " files elsewhere", "Too many open files in system"),
    EIO(Win32Error.WRITE_FAULT, "The device reported an error: check it (dmesg), and choose a folder on another device",
            "Input/output error");

    /** Whether this JVM runs on Windows: Win32 codes and advice there, the errno names and this table elsewhere. */
    public static final boolean WINDOWS = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

    private final int win32;
    private final String advice;
    private final String[] texts;

    FileError(int win32, String advice, String... texts) {
        this.win32 = win32;
        this.advice = advice;
        this.texts = texts;
    }

    /** The Win32 code ETW gives for this condition (EtwException.code(), on every platform). */
    public int win32() {
        return win32;
    }

    /** What to do about it on Linux and macOS. */
    public String advice() {
        return advice;
    }

    /** The operating system's words for it (Linux's strerror). */
    public String text() {
        return texts[0];
    }

    /** "ENOSPC (No space left on device)". */
    public String describe() {
        return name() + " (" + text() + ")";
    }

    /**
     * The error behind {@code e}, or null when the table does not know it. The JDK drops the OS's words
     * for three errors and says them by the exception's type instead (EACCES, ENOENT, EEXIST).
     */
    public static FileError of(IOException e) {
        if (e instanceof TraceFiles.RefusedException) {
            return ((TraceFiles.RefusedException) e).error();
        }
        String reason = e instanceof FileSystemException ? ((FileSystemException) e).getReason() : e.getMessage();
        if (reason == null) {
            if (e instanceof AccessDeniedException) {
                return EACCES;
            }
            if (e instanceof NoSuchFileException) {
                return ENOENT;
            }
            if (e instanceof FileAlreadyExistsException) {
                return EEXIST;
            }
            if (e instanceof NotDirectoryException) {
                return ENOTDIR;
            }
            return null;
        }
        // The longest text the words start with: "Too many open files in system" is ENFILE, not EMFILE, and the
        // JDK's ELOOP reason goes on after the OS's words.
        String r = reason.trim().toLowerCase(Locale.ROOT);
        FileError found = null;
        int longest = 0;
        for (FileError f : values()) {
            for (String t : f.texts) {
                if (t.length() > longest && r.startsWith(t.toLowerCase(Locale.ROOT))) {
                    found = f;
                    longest = t.length();
                }
            }
        }
        return found;
    }

    /**
     * A failure in the operating system's words with its name: "No space left on device (ENOSPC)" here,
     * "No space left on device (ERROR_DISK_FULL 112)" on Windows; the words alone when the table does not know them.
     */
    public static String inWords(IOException e, boolean windows) {
        String words = TraceFiles.cause(e);
        if (windows) {
            int code = TraceFiles.win32Code(e);
            return words + " (" + Win32Error.name(code) + " " + code + ")";
        }
        FileError f = of(e);
        return f == null ? words : words + " (" + f.name() + ")";
    }
}
