package dev.jetw.agent.core.session;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.SecureRandom;
import java.text.SimpleDateFormat;
import java.util.Date;

/** Where ./jetw dump writes when no file is named. */
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
        String random = String.format("%04x", new SecureRandom().nextInt(0x10000));
        return folder.resolve(stem + "-dump-" + time + "-" + random + ".etl");
    }
}
