package dev.jetw.etw;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The documented rules for a session's properties, checked when {@link SessionConfig.Builder#build()}
 * runs: the first violation throws {@link ConfigException} (key, value, what is allowed); accepted but
 * noteworthy settings come back as warnings. Sources: learn.microsoft.com EVENT_TRACE_PROPERTIES(_V2)
 * and "Logging Mode Constants", summarised in etw-api.md §2.3, §3.4, §6, §8. Every rule and message is
 * listed in docs/configuration.md.
 *
 * <p>Checks run in a fixed order (names, sizes, mode combinations, mode requirements, real time,
 * kernel flags, log file) so that the message names the most basic problem first.
 */
final class SessionConfigValidator {

    static final int MIN_BUFFER_SIZE_KB = 4;
    static final int MAX_BUFFER_SIZE_KB = 16384;
    /** Larger buffers need Windows 8+ and switch the file layout from 1.5 to 2.0 (etl-format.md). */
    static final int LAYOUT_1_5_MAX_BUFFER_SIZE_KB = 1024;
    /** From this size on, buffers are meant for diagnostic investigations only (EVENT_TRACE_PROPERTIES_V2). */
    static final int DIAGNOSTIC_BUFFER_SIZE_KB = 256;
    /** EVENT_TRACE_PROPERTIES: session and log-file names are each limited to 1,024 characters. */
    static final int MAX_NAME_CHARS = 1024;
    /** KERNEL_LOGGER_NAMEW; ETW compares session names case-insensitively. */
    static final String KERNEL_LOGGER_NAME = "NT Kernel Logger";

    static final String BUFFER_SIZE_ALLOWED = "allowed " + MIN_BUFFER_SIZE_KB + "-" + MAX_BUFFER_SIZE_KB + " KB";
    static final String MIN_BUFFERS_ALLOWED = "a whole number of buffers, at least 1";
    static final String MAX_FILE_SIZE_ALLOWED = "allowed 0 (no limit) or a size in MB";
    static final String FLUSH_TIMER_ALLOWED = "allowed 0 (flush only full buffers) or whole seconds";
    static final String CLOCK_ALLOWED = "allowed qpc, system or cycle";
    static final String ORPHAN_ALLOWED = "allowed restart, reuse or fail";
    static final String NAME_ALLOWED = "allowed a non-empty session name of at most " + MAX_NAME_CHARS + " characters";

    private SessionConfigValidator() {
    }

    /** Checks {@code b}; returns the warnings, throws {@link ConfigException} on the first violation. */
    static List<String> validate(SessionConfig.Builder b) {
        List<String> warnings = new ArrayList<>();
        checkName(b);
        checkBufferSize(b, warnings);
        checkBufferCounts(b);
        checkBackendLimits(b);
        checkScalars(b);
        checkClock(b, warnings);
        checkModeCombinations(b);
        checkModeRequirements(b, warnings);
        checkRealTime(b, warnings);
        checkKernel(b);
        checkLogFile(b, warnings);
        return warnings;
    }

    private static void checkName(SessionConfig.Builder b) {
        String name = b.sessionName;
        if (name == null || name.trim().isEmpty()) {
            throw new ConfigException(SessionConfigParser.NAME, String.valueOf(name), NAME_ALLOWED);
        }
        if (name.length() > MAX_NAME_CHARS) {
            throw new ConfigException(SessionConfigParser.NAME, abbreviate(name), NAME_ALLOWED);
        }
    }

    private static void checkBufferSize(SessionConfig.Builder b, List<String> warnings) {
        int kb = b.bufferSizeKb;
        if (kb < MIN_BUFFER_SIZE_KB || kb > MAX_BUFFER_SIZE_KB) {
            throw new ConfigException(SessionConfigParser.BUFFER_SIZE, String.valueOf(kb), BUFFER_SIZE_ALLOWED);
        }
        if (kb >= DIAGNOSTIC_BUFFER_SIZE_KB) {
            warnings.add(SessionConfigParser.BUFFER_SIZE + "=" + kb + ": buffers of " + DIAGNOSTIC_BUFFER_SIZE_KB
                    + " KB or more are diagnostic-only (Microsoft: for investigations and tests, not production"
                    + " tracing); the default 64 KB suits a high event rate");
        }
        if (kb > LAYOUT_1_5_MAX_BUFFER_SIZE_KB) {
            warnings.add(SessionConfigParser.BUFFER_SIZE + "=" + kb + ": more than " + LAYOUT_1_5_MAX_BUFFER_SIZE_KB
                    + " KB needs Windows 8+ and makes a 2.0-layout file older tools can't read");
        }
    }

    private static void checkBufferCounts(SessionConfig.Builder b) {
        if (b.minimumBuffers < 1) {
            throw new ConfigException(SessionConfigParser.MIN_BUFFERS, String.valueOf(b.minimumBuffers),
                    "allowed 1 or more (ETW raises it to 2 per logical processor itself)");
        }
        if (b.maximumBuffers < 1) {
            throw new ConfigException(SessionConfigParser.MAX_BUFFERS, String.valueOf(b.maximumBuffers),
                    "allowed 1 or more, and at least minBuffers");
        }
        // Buffering mode sizes its ring by minBuffers alone and ignores maxBuffers (EVENT_TRACE_PROPERTIES_V2),
        // so a large ring must not be refused because of the default maxBuffers.
        if (b.maximumBuffers < b.minimumBuffers && !b.modes.contains(LogFileMode.BUFFERING)) {
            throw new ConfigException(SessionConfigParser.MAX_BUFFERS, String.valueOf(b.maximumBuffers),
                    "allowed at least minBuffers (" + b.minimumBuffers + ")");
        }
    }

    /**
     * What ETW would accept but the backend that runs the session will not: checked here, before the
     * cross-field rules, so the user hears the real obstacle first and once (BackendLimits).
     */
    private static void checkBackendLimits(SessionConfig.Builder b) {
        BackendLimits l = b.limits;
        if (l.backendName == null) {
            return;
        }
        if (b.sessionName.length() > l.maxNameChars) {
            throw new ConfigException(SessionConfigParser.NAME, abbreviate(b.sessionName), "allowed a non-empty session name of at most "
                    + l.maxNameChars + " characters with " + l.backendName);
        }
        if (b.bufferSizeKb > l.maxBufferSizeKb) {
            throw new ConfigException(SessionConfigParser.BUFFER_SIZE, String.valueOf(b.bufferSizeKb), "allowed " + MIN_BUFFER_SIZE_KB + "-"
                    + l.maxBufferSizeKb + " KB with " + l.backendName + " (it writes file layout 1.5; larger buffers need ETW on Windows 8+)");
        }
        if (b.modes.contains(LogFileMode.APPEND) && !l.supportsAppend) {
            throw new ConfigException(SessionConfigParser.MODE, "append", l.backendName + " always starts a new file and cannot append;"
                    + " allowed: sequential, circular, newfile, buffering, real-time (newfile keeps earlier files)");
        }
        if (l.maxHeapBytes > 0) {
            long bufferBytes = b.bufferSizeKb * 1024L;
            checkBufferMemory(SessionConfigParser.MIN_BUFFERS, b.minimumBuffers, bufferBytes, l.maxStartBufferBytes(), "a quarter", l);
            if (!b.modes.contains(LogFileMode.BUFFERING)) {
                checkBufferMemory(SessionConfigParser.MAX_BUFFERS, b.maximumBuffers, bufferBytes, l.maxGrownBufferBytes(), "half", l);
            }
        }
    }

    private static void checkBufferMemory(String key, int buffers, long bufferBytes, long limit, String share, BackendLimits l) {
        if (buffers * bufferBytes <= limit) {
            return;
        }
        throw new ConfigException(key, String.valueOf(buffers), buffers + " buffers of " + bufferBytes / 1024 + " KB (" + mb(buffers * bufferBytes)
                + ") do not fit: " + l.backendName + " keeps its buffers in the Java heap and " + key + " x bufferSize may use at most "
                + share + " of the max heap (" + mb(l.maxHeapBytes) + " here); allowed at most " + Math.max(0, limit / bufferBytes)
                + " buffers of " + bufferBytes / 1024 + " KB");
    }

    private static String mb(long bytes) {
        return (bytes + (1 << 20) - 1 >> 20) + " MB";
    }

    private static void checkScalars(SessionConfig.Builder b) {
        if (b.maximumFileSizeMb < 0) {
            throw new ConfigException(SessionConfigParser.MAX_FILE_SIZE, String.valueOf(b.maximumFileSizeMb),
                    MAX_FILE_SIZE_ALLOWED);
        }
        if (b.flushTimerSeconds < 0) {
            throw new ConfigException(SessionConfigParser.FLUSH_TIMER, String.valueOf(b.flushTimerSeconds),
                    FLUSH_TIMER_ALLOWED);
        }
        if (b.clock == null) {
            throw new ConfigException(SessionConfigParser.CLOCK, "null", CLOCK_ALLOWED);
        }
        if (b.orphanPolicy == null) {
            throw new ConfigException(SessionConfigParser.ORPHAN, "null", ORPHAN_ALLOWED);
        }
    }

    private static void checkClock(SessionConfig.Builder b, List<String> warnings) {
        if (b.clock == ClockType.SYSTEM && b.modes.contains(LogFileMode.SYSTEM_LOGGER)) {
            warnings.add(SessionConfigParser.CLOCK + "=system with system-logger: before Windows 10 1703 all system loggers"
                    + " together may use at most two distinct clock types (WNODE_HEADER), so this session can fail"
                    + " to start beside others, and its kernel events get the coarse system-time stamps; qpc is the"
                    + " default");
        }
        if (b.clock == ClockType.CYCLE) {
            warnings.add(SessionConfigParser.CLOCK + "=cycle: Microsoft calls the CPU cycle counter unreliable (it"
                    + " changes frequency and stops in some power states) and not for production; qpc is the default");
        }
    }

    /** Pairs "Logging Mode Constants" says not to combine. */
    private static void checkModeCombinations(SessionConfig.Builder b) {
        Set<LogFileMode> m = b.modes;
        String circularVsSequential = "sequential stops at maxFileSize, circular overwrites the oldest events;"
                + " choose one";
        exclusive(m, LogFileMode.SEQUENTIAL, LogFileMode.CIRCULAR, circularVsSequential);
        exclusive(m, LogFileMode.SEQUENTIAL, LogFileMode.NEWFILE,
                "newfile starts a new file at maxFileSize where sequential stops; choose one");
        exclusive(m, LogFileMode.CIRCULAR, LogFileMode.NEWFILE,
                "circular reuses one file, newfile starts new ones; choose one");
        String append = "append continues an existing sequential file; it combines only with sequential";
        exclusive(m, LogFileMode.APPEND, LogFileMode.CIRCULAR, append);
        exclusive(m, LogFileMode.APPEND, LogFileMode.NEWFILE, append);
        exclusive(m, LogFileMode.APPEND, LogFileMode.REAL_TIME, append);
        exclusive(m, LogFileMode.APPEND, LogFileMode.PRIVATE, append);
        exclusive(m, LogFileMode.APPEND, LogFileMode.PRIVATE_IN_PROC, append);
        String buffering = "buffering keeps events in an in-memory ring only (snapshot them with flush);"
                + " it combines with no file mode and no real-time delivery";
        for (LogFileMode other : new LogFileMode[] {LogFileMode.SEQUENTIAL, LogFileMode.CIRCULAR,
                LogFileMode.APPEND, LogFileMode.NEWFILE, LogFileMode.PREALLOCATE, LogFileMode.REAL_TIME}) {
            exclusive(m, LogFileMode.BUFFERING, other, buffering);
        }
        for (LogFileMode priv : new LogFileMode[] {LogFileMode.PRIVATE, LogFileMode.PRIVATE_IN_PROC}) {
            exclusive(m, LogFileMode.REAL_TIME, priv, "a private session cannot deliver events in real time");
            exclusive(m, LogFileMode.PREALLOCATE, priv, "ETW cannot preallocate the file of a private session");
            exclusive(m, LogFileMode.NEWFILE, priv, "Logging Mode Constants: newfile is not allowed for private"
                    + " sessions");
            exclusive(m, LogFileMode.SYSTEM_LOGGER, priv, "a private session runs inside the process and cannot"
                    + " receive kernel events");
        }
    }

    private static void checkModeRequirements(SessionConfig.Builder b, List<String> warnings) {
        for (LogFileMode sized : new LogFileMode[] {LogFileMode.CIRCULAR, LogFileMode.NEWFILE, LogFileMode.PREALLOCATE}) {
            if (b.modes.contains(sized) && b.maximumFileSizeMb == 0) {
                throw new ConfigException(SessionConfigParser.MAX_FILE_SIZE, "0", "mode=" + sized.optionName()
                        + " needs maxFileSize > 0 (MB), e.g. maxFileSize=100m");
            }
        }
        if (b.modes.contains(LogFileMode.APPEND) && b.clock != ClockType.SYSTEM) {
            throw new ConfigException(SessionConfigParser.CLOCK, b.clock.optionName(), "mode=append needs clock=system;"
                    + " with another clock the appended events get wrong timestamps (Logging Mode Constants)");
        }
        if (b.modes.contains(LogFileMode.NEWFILE) && isKernelLogger(b.sessionName)) {
            warnings.add(SessionConfigParser.MODE + "=newfile: Microsoft advises against newfile for the NT Kernel"
                    + " Logger session");
        }
    }

    private static void checkRealTime(SessionConfig.Builder b, List<String> warnings) {
        if (!b.modes.contains(LogFileMode.REAL_TIME)) {
            return;
        }
        if (!b.realTimeWithoutConsumer) {
            throw new ConfigException(SessionConfigParser.MODE, SessionConfigParser.modeList(b.modes),
                    "real-time needs a consumer reading the session, and jetw has none: without one ETW holds"
                    + " events until its playback limit, then every write fails with STATUS_LOG_FILE_FULL and"
                    + " events are lost; use a file mode, or set realTimeWithoutConsumer=true if your own"
                    + " consumer attaches");
        }
        warnings.add(SessionConfigParser.MODE + "=real-time: forced by realTimeWithoutConsumer=true; unless a"
                + " consumer attaches, writes fail with STATUS_LOG_FILE_FULL once ETW's playback limit is reached");
    }

    private static void checkKernel(SessionConfig.Builder b) {
        boolean kernelLogger = isKernelLogger(b.sessionName);
        boolean privateSession = isPrivate(b.modes);
        if (privateSession && kernelLogger) {
            throw new ConfigException(SessionConfigParser.NAME, b.sessionName,
                    "the NT Kernel Logger is a system-wide kernel session and cannot be private; choose another name"
                    + " or drop mode=private");
        }
        if (b.modes.contains(LogFileMode.SYSTEM_LOGGER) && kernelLogger) {
            throw new ConfigException(SessionConfigParser.MODE, SessionConfigParser.modeList(b.modes),
                    "system-logger is for sessions other than the NT Kernel Logger; use either mode=system-logger"
                    + " or name=NT Kernel Logger");
        }
        if (kernelLogger && b.providerEnabled) {
            // Microsoft: ETW forces SystemTraceControlGuid for this name, and TraceEvent(Instance) fails with
            // ERROR_INVALID_HANDLE for the NT Kernel Logger's handle; on Windows 7 the kernel companion would
            // also collide with it. Kernel events reach jetw's session through kernel= instead.
            throw new ConfigException(SessionConfigParser.NAME, b.sessionName, "jetw's provider cannot log to the NT"
                    + " Kernel Logger (ETW refuses its events there); choose another name and add kernel=<flags>,"
                    + " which puts kernel events in jetw's own session");
        }
        if (b.kernelFlags.isEmpty()) {
            return;
        }
        String flags = SessionConfigParser.kernelList(b.kernelFlags);
        if (privateSession) {
            throw new ConfigException(SessionConfigParser.KERNEL, flags,
                    "a private session cannot receive kernel events; drop kernel= or mode=private");
        }
        if (!b.modes.contains(LogFileMode.SYSTEM_LOGGER) && !kernelLogger) {
            throw new ConfigException(SessionConfigParser.KERNEL, flags,
                    "kernel flags need mode=system-logger (Windows 8+) or name=NT Kernel Logger");
        }
    }

    private static void checkLogFile(SessionConfig.Builder b, List<String> warnings) {
        Path file = b.logFile;
        if (file == null) {
            // Real-time sessions deliver to a consumer; buffering keeps a ring in memory. Everything else,
            // including an empty mode set (EVENT_TRACE_FILE_MODE_NONE = sequential), writes a file.
            if (!b.modes.contains(LogFileMode.REAL_TIME) && !b.modes.contains(LogFileMode.BUFFERING)) {
                String modes = b.modes.isEmpty() ? "sequential" : SessionConfigParser.modeList(b.modes);
                throw new ConfigException(SessionConfigParser.FILE, "(none)", "mode=" + modes
                        + " writes a log file; give file=<path>.etl, or use mode=real-time or mode=buffering");
            }
            return;
        }
        String text = file.toString();
        if (text.trim().isEmpty()) {
            throw new ConfigException(SessionConfigParser.FILE, text, "allowed a non-empty path of at most "
                    + MAX_NAME_CHARS + " characters");
        }
        if (text.length() > MAX_NAME_CHARS) {
            throw new ConfigException(SessionConfigParser.FILE, abbreviate(text), "allowed a non-empty path of at most "
                    + MAX_NAME_CHARS + " characters");
        }
        if (Files.isDirectory(file)) {
            throw new ConfigException(SessionConfigParser.FILE, text, "this is a folder; give a file path, e.g. "
                    + file.resolve("jetw.etl"));
        }
        Path folder = file.toAbsolutePath().getParent();
        if (folder != null && !Files.isDirectory(folder)) {
            throw new ConfigException(SessionConfigParser.FILE, text, noFolder(folder, FileError.WINDOWS));
        }
        String fileName = file.getFileName() == null ? text : file.getFileName().toString();
        if (b.modes.contains(LogFileMode.NEWFILE) && !fileName.contains("%d")) {
            throw new ConfigException(SessionConfigParser.FILE, text, "mode=newfile needs %d in the file name,"
                    + " e.g. trace%d.etl: ETW replaces it with each new file's number");
        }
        if (!fileName.toLowerCase(Locale.ROOT).endsWith(".etl")) {
            warnings.add(SessionConfigParser.FILE + "=" + text + ": ETW log files should end in .etl; tools look"
                    + " for that extension");
        }
    }

    /**
     * Why {@code folder} cannot hold the log file: a file is in the way (ENOTDIR) or it does not exist
     * (ENOENT; ETW's StartTrace answers ERROR_BAD_PATHNAME, which does not say which folder).
     */
    static String noFolder(Path folder, boolean windows) {
        Path existing = folder;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing != null && !Files.isDirectory(existing)) {
            return existing + " is not a folder" + (windows ? "" : " (ENOTDIR)");
        }
        return windows ? "the folder " + folder + " does not exist; ETW does not create it (StartTrace fails with"
                + " ERROR_BAD_PATHNAME): create it first"
                : "the folder " + folder + " does not exist (ENOENT); jetw does not create folders: create it first";
    }

    private static void exclusive(Set<LogFileMode> modes, LogFileMode a, LogFileMode b, String why) {
        if (modes.contains(a) && modes.contains(b)) {
            throw new ConfigException(SessionConfigParser.MODE, SessionConfigParser.modeList(modes),
                    a.optionName() + " and " + b.optionName() + " exclude each other: " + why);
        }
    }

    /** PRIVATE_IN_PROC's bits include PRIVATE_LOGGER_MODE: either one makes a private session. */
    static boolean isPrivate(Set<LogFileMode> modes) {
        return modes.contains(LogFileMode.PRIVATE) || modes.contains(LogFileMode.PRIVATE_IN_PROC);
    }

    static boolean isKernelLogger(String sessionName) {
        return sessionName != null && KERNEL_LOGGER_NAME.equalsIgnoreCase(sessionName);
    }

    private static String abbreviate(String s) {
        return s.substring(0, 40) + "... (" + s.length() + " characters)";
    }
}
