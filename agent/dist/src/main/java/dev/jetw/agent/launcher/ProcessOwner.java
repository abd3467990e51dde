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
 * than leave the operator to find out. Anyone else cannot attach to it at all, and is told whom to run
 * the command as. Where there is no /proc nothing is said.
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

    /**
     * Why this tool cannot reach {@code pid}, when the JVM runs under another user and this tool is not
     * root (HotSpot's attach mechanism admits only the JVM's own effective user and root), else null. Said
     * up front, in Linux's words, instead of the Attach API's "Operation not permitted" after the fact.
     */
    static String otherUserReason(String command, String pid) {
        String target = uid(Paths.get("/proc", pid, "status"));
        String self = uid(Paths.get("/proc", "self", "status"));
        if (target == null || self == null || target.equals(self) || self.equals("0")) {
            return null;
        }
        return otherUserReason(command, pid, target, userName(target), self, userName(self));
    }

    /**
     * The reason for a JVM of user {@code targetName} ({@code targetUid}) and a tool run as {@code selfName}; names may be
     * null. The command to run again is the one the user typed ({@link JetwCli#invocation}), as in the usage texts.
     */
    static String otherUserReason(String command, String pid, String targetUid, String targetName, String selfUid, String selfName) {
        String target = targetName != null ? targetName : "uid " + targetUid;
        String again = JetwCli.invocation() + " " + command + " " + pid;
        return "the JVM runs as user " + described(targetUid, targetName) + ", this tool as user " + described(selfUid, selfName)
                + "; only the JVM's own user and root may attach to it: run " + again + " as " + target
                + " (sudo -u " + (targetName != null ? targetName : "#" + targetUid) + " " + again + ") or as root";
    }

    private static String described(String uid, String name) {
        return name != null ? name + " (uid " + uid + ")" : "uid " + uid;
    }

    /** The user name of {@code uid} from /etc/passwd, or null. */
    static String userName(String uid) {
        try {
            return userNameOf(Files.readAllLines(Paths.get("/etc/passwd"), StandardCharsets.ISO_8859_1), uid);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static String userNameOf(List<String> passwdLines, String uid) {
        for (String line : passwdLines) {
            String[] f = line.split(":", -1);
            if (f.length > 2 && f[2].equals(uid) && !f[0].isEmpty()) {
                return f[0];
            }
        }
        return null;
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
