package dev.jetw.agent.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * Whose process the target is, from /proc/PID/status (Linux): root may attach to another user's JVM,
 * and the agent then runs, and writes its file, with that user's rights; the tool says so rather
 * than leave the operator to find out. Where there is no /proc nothing is said.
 */
final class ProcessOwner {

    private ProcessOwner() {
    }

    /** A note when {@code pid} runs under another real user id than this tool, else null. */
    static String differenceNote(String pid) {
        String target = uid(Paths.get("/proc", pid, "status"));
        String self = uid(Paths.get("/proc", "self", "status"));
        if (target == null || self == null || target.equals(self)) {
            return null;
        }
        return "note: the target JVM runs as uid " + target + ", this tool as uid " + self
                + ": the agent and its trace file work with uid " + target + "'s rights";
    }

    /** The effective uid of a /proc status file (second field of "Uid:"), or null. */
    static String uid(Path status) {
        try {
            return uidOf(Files.readAllLines(status, StandardCharsets.ISO_8859_1));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static String uidOf(List<String> statusLines) {
        for (String line : statusLines) {
            if (line.startsWith("Uid:")) {
                String[] f = line.substring(4).trim().split("\\s+");
                return f.length > 1 ? f[1] : null;
            }
        }
        return null;
    }
}
