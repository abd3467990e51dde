package dev.jetw.etw.portable.linux;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names of jetw's tracefs instances: {@code jetw-<pid>-<starttime>-<session>[-<role>]}. The owner's pid and
 * start time (field 22 of /proc/pid/stat) make a leftover instance of a dead JVM recognisable even after its
 * pid was reused; the session number keeps two sessions of one JVM apart; the role tells the instances of
 * one session apart ("sched", "blk").
 */
final class InstanceName {

    public static final String PREFIX = "jetw-";
    private static final Pattern NAME = Pattern.compile("jetw-(\\d+)-(\\d+)-(\\d+)(?:-([a-z]+))?");
    private static final AtomicInteger SESSIONS = new AtomicInteger();

    public final int pid;
    public final long startTime;
    public final int session;
    public final String role;

    public InstanceName(int pid, long startTime, int session, String role) {
        this.pid = pid;
        this.startTime = startTime;
        this.session = session;
        this.role = role;
    }

    /** A fresh session number of this JVM. */
    public static int nextSession() {
        return SESSIONS.incrementAndGet();
    }

    /** The parsed name, or null when it is not one of jetw's. */
    public static InstanceName parse(String s) {
        Matcher m = NAME.matcher(s);
        if (!m.matches()) {
            return null;
        }
        return new InstanceName(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)),
                Integer.parseInt(m.group(3)), m.group(4));
    }

    @Override
    public String toString() {
        return PREFIX + pid + "-" + startTime + "-" + session + (role == null ? "" : "-" + role);
    }
}
