package dev.jetw.etw.portable;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etl.SessionNotice;
import dev.jetw.etw.ClockType;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.Win32Error;
import dev.jetw.etw.portable.linux.KernelFlagPlan;
import dev.jetw.etw.portable.linux.LinuxKernelCollector;

import java.util.ArrayList;
import java.util.List;

/**
 * StartTrace's checks of EVENT_TRACE_PROPERTIES that the portable engine depends on, with ETW's
 * error codes, and the notices for settings it accepts but cannot honour on this host.
 */
final class SessionRules {

    private static final String F = "StartTraceW";

    private SessionRules() {
    }

    /** Throws the EtwException ETW would raise; returns the notices (never errors). */
    static List<SessionNotice> check(SessionConfig c) throws EtwException {
        String n = c.sessionName();
        if (n == null || n.isEmpty() || n.length() > 1023) {
            throw bad("sessionName", n, "1 to 1023 characters");
        }
        if (c.bufferSizeKb() < 1 || c.bufferSizeKb() > 1024) {
            // Above 1 MB ETW switches to file layout 2.0, which older readers reject (etl-format.md §2.2).
            throw bad("bufferSize", c.bufferSizeKb() + " KB", "1 to 1024 KB");
        }
        if (c.minimumBuffers() < 1 || c.maximumBuffers() < c.minimumBuffers()) {
            throw bad("minBuffers/maxBuffers", c.minimumBuffers() + "/" + c.maximumBuffers(),
                    "minBuffers >= 1 and maxBuffers >= minBuffers");
        }
        if (c.has(LogFileMode.APPEND)) {
            throw new EtwException(F, Win32Error.NOT_SUPPORTED, "log-file mode append is not supported by the portable"
                    + " backend (a file is always started new); use newfile to keep earlier files");
        }
        boolean seq = c.has(LogFileMode.SEQUENTIAL);
        boolean circ = c.has(LogFileMode.CIRCULAR);
        boolean newf = c.has(LogFileMode.NEWFILE);
        boolean buffering = c.has(LogFileMode.BUFFERING);
        boolean realTime = c.has(LogFileMode.REAL_TIME);
        if ((seq ? 1 : 0) + (circ ? 1 : 0) + (newf ? 1 : 0) > 1) {
            throw bad("modes", c.modes().toString(), "at most one of sequential, circular, newfile");
        }
        if (buffering && (circ || newf || realTime)) {
            throw bad("modes", c.modes().toString(), "buffering does not combine with circular, newfile or real-time");
        }
        long maxBytes = (long) c.maximumFileSizeMb() * 1024 * 1024;
        if ((circ || newf) && c.maximumFileSizeMb() <= 0) {
            throw bad("maxFileSize", "0", "circular and newfile need a maximum file size (MB)");
        }
        if (circ && maxBytes < 2L * c.bufferSizeKb() * 1024) {
            throw bad("maxFileSize", c.maximumFileSizeMb() + " MB", "at least two buffers for circular");
        }
        if (c.logFile() == null && !realTime && !buffering) {
            throw bad("logFile", "(none)", "a log file, unless the session is real-time or buffering");
        }
        if (newf && !c.logFile().toString().contains("%d")) {
            throw bad("logFile", c.logFile().toString(), "newfile needs %d in the file name (replaced by 1, 2, ...)");
        }
        if (newf && maxBytes < 2L * c.bufferSizeKb() * 1024) {
            throw bad("maxFileSize", c.maximumFileSizeMb() + " MB", "at least two buffers per file for newfile");
        }
        if (c.logFile() != null) {
            int pathBytes = 2 * (c.logFile().toAbsolutePath().toString().length() + n.length() + 2);
            if (EtlFormat.BUFFER_HEADER_SIZE + EtlFormat.SYSTEM_HEADER_SIZE + EtlFormat.LOGFILE_HEADER64_SIZE + pathBytes
                    > c.bufferSizeKb() * 1024) {
                throw bad("bufferSize", c.bufferSizeKb() + " KB", "room for the logfile header with the session name and"
                        + " log file path");
            }
        }
        List<SessionNotice> notices = new ArrayList<>();
        if (c.clock() == ClockType.CYCLE) {
            notices.add(new SessionNotice(SessionNotice.NOTE, "clock=cycle has no portable source; events are stamped"
                    + " with the QPC-like clock (100 ns ticks, PerfFreq 10^7) and the header says clock type 1 (QPC)"));
        }
        notices.addAll(kernelNotices(c, LinuxKernelCollector.isLinux()));
        return notices;
    }

    /**
     * What becomes of kernel= here: on Linux the flags with an equivalent are collected (docs/linux-kernel-events.md)
     * and each other flag gets its own notice; elsewhere none is, and one notice says so. Whether the collector
     * can run (root, tracefs) is found at start, and reported then.
     */
    static List<SessionNotice> kernelNotices(SessionConfig c, boolean linux) {
        List<SessionNotice> notices = new ArrayList<>();
        if (c.kernelFlagBits() == 0) {
            if (c.has(LogFileMode.SYSTEM_LOGGER)) {
                notices.add(new SessionNotice(SessionNotice.NOTE, "mode=system-logger without kernel= flags: no kernel"
                        + " events are asked for, none are recorded"));
            }
            return notices;
        }
        if (!linux) {
            notices.add(new SessionNotice(SessionNotice.PROBLEM, "kernel flags " + c.kernelFlags() + " accepted, but"
                    + " there is no Windows kernel here and the portable backend collects kernel events only on Linux"
                    + " (tracefs): no kernel events are recorded"));
            return notices;
        }
        notices.addAll(KernelFlagPlan.of(c.kernelFlags()).notices);
        return notices;
    }

    private static EtwException bad(String option, String value, String allowed) {
        return new EtwException(F, Win32Error.INVALID_PARAMETER, option + " = " + value + ": allowed " + allowed);
    }
}
