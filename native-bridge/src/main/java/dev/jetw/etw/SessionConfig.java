package dev.jetw.etw;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * An ETW session's properties (EVENT_TRACE_PROPERTIES), immutable and validated when built.
 * Build one with {@link #builder()} or parse the agent's {@code key=value,key=value} syntax with
 * {@link #parse(String)}. Defaults and their reasons: docs/configuration.md.
 */
public final class SessionConfig {

    public static final String DEFAULT_SESSION_NAME = "jetw";
    public static final int DEFAULT_BUFFER_SIZE_KB = 64;
    public static final int DEFAULT_MINIMUM_BUFFERS = 8;
    public static final int DEFAULT_MAXIMUM_BUFFERS = 128;
    public static final int DEFAULT_FLUSH_TIMER_SECONDS = 1;
    /** The one session that takes kernel flags without system-logger mode (KERNEL_LOGGER_NAME). */
    public static final String KERNEL_LOGGER_NAME = "NT Kernel Logger";

    private final String sessionName;
    private final Path logFile;
    private final int bufferSizeKb;
    private final int minimumBuffers;
    private final int maximumBuffers;
    private final int maximumFileSizeMb;
    private final Set<LogFileMode> modes;
    private final int flushTimerSeconds;
    private final Set<KernelFlag> kernelFlags;
    private final ClockType clock;
    private final OrphanPolicy orphanPolicy;
    private final boolean realTimeWithoutConsumer;
    private final boolean providerEnabled;
    private final boolean overwrite;
    private final String filePermissions;
    private final BackendLimits limits;
    private final List<String> warnings;

    private SessionConfig(Builder b, List<String> warnings) {
        this.sessionName = b.sessionName;
        this.logFile = b.logFile;
        this.bufferSizeKb = b.bufferSizeKb;
        this.minimumBuffers = b.minimumBuffers;
        this.maximumBuffers = b.maximumBuffers;
        this.maximumFileSizeMb = b.maximumFileSizeMb;
        this.modes = Collections.unmodifiableSet(b.modes.isEmpty() ? EnumSet.noneOf(LogFileMode.class) : EnumSet.copyOf(b.modes));
        this.flushTimerSeconds = b.flushTimerSeconds;
        this.kernelFlags = Collections.unmodifiableSet(b.kernelFlags.isEmpty() ? EnumSet.noneOf(KernelFlag.class) : EnumSet.copyOf(b.kernelFlags));
        this.clock = b.clock;
        this.orphanPolicy = b.orphanPolicy;
        this.realTimeWithoutConsumer = b.realTimeWithoutConsumer;
        this.providerEnabled = b.providerEnabled;
        this.overwrite = b.overwrite;
        this.filePermissions = b.filePermissions;
        this.limits = b.limits;
        this.warnings = Collections.unmodifiableList(new ArrayList<>(warnings));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Parses {@code key=value,key=value}; throws {@link ConfigException} naming the key, value and what is allowed. */
    public static SessionConfig parse(String options) {
        return SessionConfigParser.parse(options).build();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.sessionName = sessionName;
        b.logFile = logFile;
        b.bufferSizeKb = bufferSizeKb;
        b.minimumBuffers = minimumBuffers;
        b.maximumBuffers = maximumBuffers;
        b.maximumFileSizeMb = maximumFileSizeMb;
        b.modes = modes.isEmpty() ? EnumSet.noneOf(LogFileMode.class) : EnumSet.copyOf(modes);
        b.flushTimerSeconds = flushTimerSeconds;
        b.kernelFlags = kernelFlags.isEmpty() ? EnumSet.noneOf(KernelFlag.class) : EnumSet.copyOf(kernelFlags);
        b.clock = clock;
        b.orphanPolicy = orphanPolicy;
        b.realTimeWithoutConsumer = realTimeWithoutConsumer;
        b.providerEnabled = providerEnabled;
        b.overwrite = overwrite;
        b.filePermissions = filePermissions;
        b.limits = limits;
        return b;
    }

    public String sessionName() { return sessionName; }

    /** The log file, or null for a real-time session without one. */
    public Path logFile() { return logFile; }

    public int bufferSizeKb() { return bufferSizeKb; }

    public int minimumBuffers() { return minimumBuffers; }

    public int maximumBuffers() { return maximumBuffers; }

    /** Maximum file size in MB; 0 means no limit. */
    public int maximumFileSizeMb() { return maximumFileSizeMb; }

    public Set<LogFileMode> modes() { return modes; }

    public boolean has(LogFileMode mode) { return modes.contains(mode); }

    /** The LogFileMode bits of {@link #modes()}. */
    public int logFileModeBits() {
        int bits = 0;
        for (LogFileMode m : modes) {
            bits |= m.bits();
        }
        return bits;
    }

    public int flushTimerSeconds() { return flushTimerSeconds; }

    public Set<KernelFlag> kernelFlags() { return kernelFlags; }

    /** The EnableFlags bits of {@link #kernelFlags()}. */
    public int kernelFlagBits() {
        int bits = 0;
        for (KernelFlag f : kernelFlags) {
            bits |= f.bits();
        }
        return bits;
    }

    public ClockType clock() { return clock; }

    public OrphanPolicy orphanPolicy() { return orphanPolicy; }

    /** True when real-time mode was forced although no consumer may be attached. */
    public boolean realTimeWithoutConsumer() { return realTimeWithoutConsumer; }

    /** True (the default) when jetw's provider will be enabled in this session; see {@link Builder#providerEnabled}. */
    public boolean providerEnabled() { return providerEnabled; }

    /** Accepted but noteworthy settings (e.g. a buffer size only for diagnostics); never errors. */
    public List<String> warnings() { return warnings; }

    /** Whether an existing regular log file may be replaced (TraceFiles); false by default. */
    public boolean overwrite() { return overwrite; }

    /** The permissions of a new log file, three octal digits; owner-only ("600") by default. */
    public String filePermissions() { return filePermissions; }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        String sessionName = DEFAULT_SESSION_NAME;
        Path logFile;
        int bufferSizeKb = DEFAULT_BUFFER_SIZE_KB;
        int minimumBuffers = DEFAULT_MINIMUM_BUFFERS;
        int maximumBuffers = DEFAULT_MAXIMUM_BUFFERS;
        int maximumFileSizeMb;
        Set<LogFileMode> modes = EnumSet.of(LogFileMode.SEQUENTIAL);
        int flushTimerSeconds = DEFAULT_FLUSH_TIMER_SECONDS;
        Set<KernelFlag> kernelFlags = EnumSet.noneOf(KernelFlag.class);
        ClockType clock = ClockType.QPC;
        OrphanPolicy orphanPolicy = OrphanPolicy.RESTART;
        boolean realTimeWithoutConsumer;
        boolean providerEnabled = true;
        boolean overwrite;
        String filePermissions = TraceFiles.OWNER_ONLY;
        /** What the backend that will run the session accepts; ETW's own rules unless told otherwise. */
        BackendLimits limits = BackendLimits.ETW;
        /** Set by the kernel= option: build() adds system-logger mode unless this is the NT Kernel Logger. */
        boolean kernelOptionImpliesSystemLogger;

        Builder() {
        }

        public Builder sessionName(String v) { sessionName = v; return this; }

        public Builder logFile(Path v) { logFile = v; return this; }

        public Builder bufferSizeKb(int v) { bufferSizeKb = v; return this; }

        public Builder minimumBuffers(int v) { minimumBuffers = v; return this; }

        public Builder maximumBuffers(int v) { maximumBuffers = v; return this; }

        public Builder maximumFileSizeMb(int v) { maximumFileSizeMb = v; return this; }

        public Builder modes(Set<LogFileMode> v) { modes = v.isEmpty() ? EnumSet.noneOf(LogFileMode.class) : EnumSet.copyOf(v); return this; }

        public Builder modes(LogFileMode first, LogFileMode... rest) { modes = EnumSet.of(first, rest); return this; }

        public Builder flushTimerSeconds(int v) { flushTimerSeconds = v; return this; }

        public Builder kernelFlags(Set<KernelFlag> v) { kernelFlags = v.isEmpty() ? EnumSet.noneOf(KernelFlag.class) : EnumSet.copyOf(v); return this; }

        public Builder clock(ClockType v) { clock = v; return this; }

        public Builder orphanPolicy(OrphanPolicy v) { orphanPolicy = v; return this; }

        public Builder realTimeWithoutConsumer(boolean v) { realTimeWithoutConsumer = v; return this; }

        /**
         * False for a session that only collects kernel or other providers' events, where jetw's own
         * provider is never enabled: only such a session may be the NT Kernel Logger (its writes fail
         * with ERROR_INVALID_HANDLE there). The agent always enables its provider: true by default.
         */
        public Builder providerEnabled(boolean v) { providerEnabled = v; return this; }

        public Builder overwrite(boolean v) { overwrite = v; return this; }

        /** Checked at once: three octal digits as {@link TraceFiles#parsePermissions} allows. */
        public Builder filePermissions(String v) { TraceFiles.parsePermissions(v); filePermissions = v.trim(); return this; }

        /** Validates against the limits of the backend that will run the session too (BackendLimits). */
        public Builder backendLimits(BackendLimits v) { limits = v; return this; }

        /** Validates (docs/configuration.md) and builds; throws {@link ConfigException} on the first violation. */
        public SessionConfig build() {
            if (kernelOptionImpliesSystemLogger && !kernelFlags.isEmpty()
                    && !KERNEL_LOGGER_NAME.equalsIgnoreCase(String.valueOf(sessionName).trim())
                    && !modes.contains(LogFileMode.SYSTEM_LOGGER)) {
                modes.add(LogFileMode.SYSTEM_LOGGER);
            }
            List<String> warnings = SessionConfigValidator.validate(this);
            return new SessionConfig(this, warnings);
        }
    }
}
