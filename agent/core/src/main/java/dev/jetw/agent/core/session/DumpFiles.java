package dev.jetw.agent.core.session;

import dev.jetw.etw.EtwException;
import dev.jetw.etw.UnpredictableBytes;
import dev.jetw.etw.Win32Error;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.text.SimpleDateFormat;
import java.util.Date;

/** Where ./jetw dump writes when no file is named, and what it says when it cannot write the one named. */
public final class DumpFiles {

    private DumpFiles() {
    }

    /**
     * Next to the session's log file (or in the working directory without one):
     * {@code <name>-dump-<yyyyMMdd-HHmmss>-<4 random hex digits>.etl}; the random part keeps the name
     * unpredictable (and two dumps in one second apart).
     */
    public static Path defaultFor(Path logFile, String sessionName) {
        String stem = logFile == null ? sessionName : logFile.getFileName().toString().replaceFirst("\\.etl$", "");
        Path folder = logFile == null || logFile.toAbsolutePath().getParent() == null
                ? Paths.get("").toAbsolutePath() : logFile.toAbsolutePath().getParent();
        String time = new SimpleDateFormat("yyyyMMdd-HHmmss").format(new Date());
        String random = UnpredictableBytes.hex(2);
        return folder.resolve(stem + "-dump-" + time + "-" + random + ".etl");
    }

    /**
     * The reply to a dump that failed: one line starting with "jetw: dump: ". A dump never replaces
     * anything (the backends create it as a new file, whatever the session's overwrite=), so a path that
     * exists gets this rule and the two ways on, once; not the backend's text, which names the session
     * option overwrite=true that a dump does not take.
     */
    public static String refusal(Path file, EtwException e) {
        if (e.code() == Win32Error.FILE_EXISTS) {
            String what = Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS) ? " is a folder" : " exists";
            return "jetw: dump: " + file + what + ", and a dump never replaces anything: name a new file,"
                    + " or leave FILE out for a new name beside the trace";
        }
        return "jetw: dump: " + e.getMessage();
    }
}
