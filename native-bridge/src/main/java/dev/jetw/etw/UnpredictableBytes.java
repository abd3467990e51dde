package dev.jetw.etw;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.SecureRandom;

/**
 * Bytes another local user cannot guess, for what jetw names or guards with them: the random part of a default
 * trace file's name (so that nobody can prepare that path in a shared working directory), of a reply's temporary
 * file, and the control channel's token.
 *
 * <p>Read from the kernel's random device ({@code /dev/urandom}, the source {@code SecureRandom}'s default
 * {@code NativePRNG} reads on Linux and macOS) where there is one, else from {@code SecureRandom} (Windows). The same
 * strength either way; what differs is the cost in a fresh JVM: one open and one read, against about 15 ms for
 * {@code SecureRandom}'s first use (its security providers, their property files and a SHA-1 seeded mixer), which
 * premain paid for the file name alone (BENCHMARKS.md §15).
 */
public final class UnpredictableBytes {

    /** The kernel's non-blocking random device (Linux, macOS: only root creates entries under /dev). */
    static final String DEVICE = "/dev/urandom";

    private UnpredictableBytes() {
    }

    /** {@code count} bytes as lower-case hex digits (2 per byte). */
    public static String hex(int count) {
        byte[] bytes = new byte[count];
        fill(bytes);
        return hex(bytes);
    }

    /** Fills {@code bytes}. */
    public static void fill(byte[] bytes) {
        fill(bytes, kernelDevice(java.io.File.separatorChar));
    }

    /**
     * The kernel's random device where names are separated by '/' (Linux, macOS) and it is not a regular file; else
     * null. On Windows "/dev/urandom" is a file in a folder dev at the current drive's root, which any local user may create
     * with bytes of their choosing: the token and the names these bytes guard would then be known to them.
     */
    static String kernelDevice(char separator) {
        if (separator != '/') {
            return null;
        }
        java.io.File device = new java.io.File(DEVICE);
        return device.exists() && !device.isFile() ? DEVICE : null;
    }

    /** {@link #fill(byte[])} from {@code device} (tests: a missing one, or null, falls back to SecureRandom). */
    static void fill(byte[] bytes, String device) {
        if (device == null || !new java.io.File(device).exists() || !readFully(device, bytes)) {
            new SecureRandom().nextBytes(bytes);
        }
    }

    private static boolean readFully(String device, byte[] bytes) {
        try (InputStream in = new FileInputStream(device)) {
            int at = 0;
            while (at < bytes.length) {
                int n = in.read(bytes, at, bytes.length - at);
                if (n < 0) {
                    return false;
                }
                at += n;
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = Character.forDigit((bytes[i] >> 4) & 0xF, 16);
            out[2 * i + 1] = Character.forDigit(bytes[i] & 0xF, 16);
        }
        return new String(out);
    }
}
