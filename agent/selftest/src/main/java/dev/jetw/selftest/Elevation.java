package dev.jetw.selftest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.util.concurrent.TimeUnit;

/**
 * Whether this process runs elevated (what kernel flags and mofcomp need). On Windows the token's
 * mandatory label says it: High (S-1-16-12288) or System (S-1-16-16384) integrity is elevated;
 * {@code whoami /groups} (in-box since Vista) lists it. On Linux the effective user is root (uid 0, from
 * {@code /proc/self/status}): what {@code kernel=} needs there (tracefs is root's); a root run said "elevated: no".
 * Elsewhere there is no ETW to be elevated for.
 */
final class Elevation {

    static final String HIGH_INTEGRITY = "S-1-16-12288";
    static final String SYSTEM_INTEGRITY = "S-1-16-16384";

    private Elevation() {
    }

    /** TRUE / FALSE on Windows and Linux, FALSE elsewhere, null when it could not be found out. */
    static Boolean current(boolean windows) {
        if (!windows) {
            java.nio.file.Path status = java.nio.file.Paths.get("/proc/self/status");
            try {
                return java.nio.file.Files.isReadable(status)
                        ? rootFromProcStatus(new String(java.nio.file.Files.readAllBytes(status), "UTF-8")) : Boolean.FALSE;
            } catch (IOException e) {
                return null;
            }
        }
        try {
            Process p = new ProcessBuilder("whoami", "/groups").redirectErrorStream(true).start();
            String text = readAll(p.getInputStream());
            if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroy();
                return null;
            }
            return fromWhoamiGroups(text);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Reads the mandatory label out of {@code whoami /groups} output; null when none is listed. */
    static Boolean fromWhoamiGroups(String text) {
        if (text.contains(HIGH_INTEGRITY) || text.contains(SYSTEM_INTEGRITY)) {
            return Boolean.TRUE;
        }
        return text.contains("S-1-16-") ? Boolean.FALSE : null;
    }

    /** Whether the effective uid on the {@code Uid:} line (real, effective, saved, file system) of /proc/PID/status is 0; null without one. */
    static Boolean rootFromProcStatus(String text) {
        for (String line : text.split("\n")) {
            if (line.startsWith("Uid:")) {
                String[] ids = line.substring(4).trim().split("\\s+");
                return ids.length > 1 ? Boolean.valueOf(ids[1].equals("0")) : null;
            }
        }
        return null;
    }

    static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        for (int n; (n = in.read(chunk)) > 0; ) {
            bytes.write(chunk, 0, n);
        }
        return new String(bytes.toByteArray(), Charset.defaultCharset());
    }
}
