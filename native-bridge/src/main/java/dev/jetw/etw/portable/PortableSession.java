package dev.jetw.etw.portable;

import dev.jetw.etl.EncodedGuid;
import dev.jetw.etl.EtlFormat;
import dev.jetw.etl.EtlLogfileHeader;
import dev.jetw.etl.EtlRecordWriter;
import dev.jetw.etl.EventType;
import dev.jetw.etl.SessionNotice;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.FileError;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import dev.jetw.etw.TraceFiles;
import dev.jetw.etw.Win32Error;
import dev.jetw.etw.portable.linux.KernelFlagPlan;
import dev.jetw.etw.portable.linux.LinuxKernelCollector;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * One running in-process session: the buffer pool, the writers' path into the buffers, the logger
 * thread and the sink of its log-file mode, with ETW's statistics; on Linux with kernel flags, the
 * kernel collector and its per-CPU buffers ({@link KernelBuffers}, docs/linux-kernel-events.md).
 */
final class PortableSession {

    /**
     * The {@code nanoTime} argument of {@link #write} for "the time of the call". No real reading
     * collides with it in practice: it lies 292 years before any other.
     */
    static final long TIME_OF_CALL = Long.MIN_VALUE;

    /** How long a control call waits for the logger thread before reporting ERROR_TIMEOUT. */
    private static final long CONTROL_TIMEOUT_SECONDS = 120;

    final String name;
    volatile SessionConfig config;
    final int bufferSize;
    final int maxPayload;
    final int loggerId;
    final int processId = ProcessIds.current();
    final SessionClock clock;
    final BufferPool pool;
    /** What the session accepted but does differently, or could not do; each is also a record in the trace. */
    final List<SessionNotice> notices;
    /** The header's NumberOfProcessors: every CPU a kernel record may come from. */
    final int processors;
    /** How this session creates its files (overwrite=, filePermissions=). */
    final TraceFiles files;
    /** How a dump is created: as the log file, but never over an existing file. */
    final TraceFiles dumpFiles;
    private final SessionEnvironment environment;

    // The three outcomes of an accepted write call, one definition each (docs/portable-backend.md, "Loss
    // accounting"): every event ends in exactly one of them once the session has stopped.
    /** Reached the file, the ring or a real-time consumer. */
    final LongAdder eventsWritten = new LongAdder();
    /** Refused before a buffer: no free buffer, log full, the writer's scratch busy. */
    final LongAdder eventsRefused = new LongAdder();
    /** In a buffer that could not be written (disk full, I/O error, file at its maximum size). */
    final LongAdder eventsInLostBuffers = new LongAdder();
    /** Kernel records that reached the file, the ring or a consumer (KernelBuffers' buffers). */
    final LongAdder kernelEventsWritten = new LongAdder();
    /** Kernel records in buffers that could not be written. */
    final LongAdder kernelEventsInLostBuffers = new LongAdder();
    /** The first failure to write the log file, in the operating system's words; null while there was none. */
    volatile String firstWriteError;
    // Written only by the logger thread; volatile so that QUERY sees them.
    volatile long buffersWritten;
    volatile long logBuffersLost;
    volatile long realTimeBuffersLost;
    /** Sequential file at its maximum size: writes fail with ERROR_LOG_FILE_FULL. */
    volatile boolean logFull;
    volatile boolean closed;
    volatile int flushTimerSeconds;

    final LogSink sink;
    private final RealTimeSink realTime;
    private final BufferingSink buffering;
    final SessionLogger logger;
    private final Thread loggerThread;
    /** The logger thread's byte image of one buffer, see {@link #fileImage}. */
    private final ByteBuffer image;
    /** Scratches that hold (or held) a buffer of this session: what the flusher visits. */
    private final Set<PortableScratch> scratches = ConcurrentHashMap.newKeySet();
    /** Guards {@link #reserved}; taken by rundown writes only, never by the event path. */
    private final Object reservedLock = new Object();
    /** The reserved buffer being filled by {@link #writeReserved}, or null. */
    private TraceBuffer reserved;
    /** The kernel stream (Linux with kernel flags), or null. */
    final KernelBuffers kernel;
    private final LinuxKernelCollector collector;
    /** The collector's stop line; null before it stopped. */
    private volatile String kernelStopLine;

    PortableSession(SessionConfig config, int loggerId, List<SessionNotice> notices) throws EtwException {
        this.name = config.sessionName();
        this.config = config;
        this.bufferSize = config.bufferSizeKb() * 1024;
        this.maxPayload = EtlFormat.maxPayload(bufferSize, EtlFormat.INSTANCE_HEADER_SIZE);
        this.loggerId = loggerId;
        this.notices = Collections.synchronizedList(new ArrayList<SessionNotice>(notices));
        KernelFlagPlan plan = kernelPlan(config);
        this.processors = plan != null ? LinuxKernelCollector.processors() : Runtime.getRuntime().availableProcessors();
        this.files = TraceFiles.of(config);
        this.dumpFiles = new TraceFiles(false, config.filePermissions());
        this.clock = new SessionClock(config.clock());
        this.environment = new SessionEnvironment();
        this.flushTimerSeconds = config.flushTimerSeconds();
        this.pool = new BufferPool(bufferSize, config.minimumBuffers(), config.maximumBuffers());
        this.image = ByteBuffer.allocate(bufferSize).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        LogSink fileSink = null;
        BufferingSink ring = null;
        if (config.has(LogFileMode.BUFFERING)) {
            LogFileLock reservation = config.logFile() == null ? null : LogFileLock.reserve(config.logFile(), "StartTraceW", files);
            if (reservation != null) {
                // Refused at start, not at the first flush; a file from an earlier run replaced on purpose goes now.
                try {
                    reservation.prepare("StartTraceW");
                } catch (EtwException e) {
                    reservation.close();
                    throw e;
                }
            }
            ring = new BufferingSink(this, reservation, config.minimumBuffers());
            fileSink = ring;
        } else if (config.logFile() != null) {
            fileSink = openFileSink(config);
        }
        this.buffering = ring;
        this.realTime = config.has(LogFileMode.REAL_TIME) && ring == null ? new RealTimeSink(this, fileSink) : null;
        this.sink = realTime != null ? realTime : fileSink;
        this.logger = new SessionLogger(this);
        this.loggerThread = dev.jetw.etw.JetwThreads.register(new Thread(logger, "jetw-logger-" + name));
        loggerThread.setDaemon(true);
        loggerThread.start();
        for (SessionNotice n : notices) {
            System.err.println("jetw portable: session " + name + ": " + n.text());
            appendNotice(n.kind(), n.text(), TIME_OF_CALL);
        }
        this.kernel = plan != null ? new KernelBuffers(this, processors) : null;
        this.collector = plan != null ? startCollector(plan) : null;
    }

    /** The kernel classes to collect, or null when the session collects none here. */
    private static KernelFlagPlan kernelPlan(SessionConfig c) {
        if (c.kernelFlagBits() == 0 || !LinuxKernelCollector.isLinux()) {
            return null;
        }
        KernelFlagPlan plan = KernelFlagPlan.of(c.kernelFlags());
        return plan.collects() ? plan : null;
    }

    /**
     * Starts the kernel collector last, when the session can take its records. Without the means (no root,
     * no tracefs, ...) the session runs on with jetw's events: one line says what is missing and how to
     * grant it, and the trace carries it as a problem.
     */
    private LinuxKernelCollector startCollector(KernelFlagPlan plan) {
        try {
            return LinuxKernelCollector.start(plan, kernel);
        } catch (LinuxKernelCollector.Unavailable e) {
            notice(SessionNotice.PROBLEM, "kernel=" + flagList(config) + ": no kernel events: " + e.getMessage(),
                    TIME_OF_CALL);
            return null;
        } catch (Throwable e) { // an Error too: the collector cleaned up after itself, the application goes on
            notice(SessionNotice.PROBLEM, "kernel=" + flagList(config) + ": no kernel events: the collector failed to"
                    + " start: " + e, TIME_OF_CALL);
            return null;
        }
    }

    private static String flagList(SessionConfig c) {
        StringBuilder b = new StringBuilder();
        for (dev.jetw.etw.KernelFlag f : c.kernelFlags()) {
            b.append(b.length() == 0 ? "" : "+").append(f.optionName());
        }
        return b.toString();
    }

    /**
     * A fact about the session the trace must carry ({@link SessionNotice}): kept for {@code notices()}, written
     * as a record stamped {@code nanoTime} ({@link #TIME_OF_CALL}: now), and, for a problem, printed once.
     */
    void notice(int kind, String text, long nanoTime) {
        if (kind == SessionNotice.PROBLEM) {
            notices.add(new SessionNotice(kind, text));
            System.err.println("jetw portable: session " + name + ": " + text);
        }
        appendNotice(kind, text, nanoTime);
    }

    /**
     * Writes a session notice as a plain record of class {@link SessionNotice#CLASS}, header thread 0, through
     * the reserved path: never refused for want of a buffer.
     */
    private void appendNotice(int kind, String text, long nanoTime) {
        byte[] p = SessionNotice.encode(kind, text);
        int length = Math.min(p.length, maxPayload) & ~1;
        int space = EtlRecordWriter.fullRecordSpace(length);
        synchronized (reservedLock) {
            if (closed || logFull) {
                return;
            }
            if (reserved == null || reserved.remaining() < space) {
                handOffReserved();
                reserved = new ReservedBuffer(bufferSize);
            }
            long ts = nanoTime == TIME_OF_CALL ? clock.now() : clock.at(nanoTime);
            int at = EtlRecordWriter.putFullHeader(reserved.words, reserved.used, EventType.INFO,
                    kind == SessionNotice.PROBLEM ? 2 : 4, SessionNotice.VERSION, 0, processId, ts, NOTICE_CLASS, length);
            reserved.used = EtlRecordWriter.putPayload(reserved.words, at, ByteBuffer.wrap(p).order(ByteOrder.LITTLE_ENDIAN),
                    length);
            reserved.events++;
            reserved.notices++;
            if (ts > reserved.lastTimeStamp) {
                reserved.lastTimeStamp = ts;
            }
        }
    }

    private static final EncodedGuid NOTICE_CLASS = EncodedGuid.of(SessionNotice.CLASS);

    private LogSink openFileSink(SessionConfig c) throws EtwException {
        long maxBytes = (long) c.maximumFileSizeMb() * 1024 * 1024;
        boolean newFile = c.has(LogFileMode.NEWFILE);
        try {
            if (newFile) {
                return new NewFileSink(this, c.logFile().toString(), maxBytes);
            }
            LogFileLock lock = LogFileLock.create(c.logFile(), files);
            try {
                EtlOutputFile file = new EtlOutputFile(this, lock);
                return c.has(LogFileMode.CIRCULAR) ? new CircularSink(this, file, maxBytes)
                        : new SequentialSink(this, file, maxBytes);
            } catch (IOException | RuntimeException e) {
                lock.discard();
                throw e;
            }
        } catch (IOException e) {
            java.nio.file.Path file = newFile ? NewFileSink.fileFor(c.logFile().toString(), 1) : c.logFile();
            throw LogFileLock.failure("StartTraceW", file.toAbsolutePath().normalize(), e);
        } catch (IllegalArgumentException e) {
            throw new EtwException("StartTraceW", Win32Error.BAD_LENGTH, e.getMessage());
        }
    }

    /**
     * The per-event path. Copies one record into the calling scratch's buffer; on a full buffer,
     * hands it to the logger and takes a free one. Never does I/O, never waits for a buffer, no
     * shared lock, no allocation: the only synchronisation is the scratch's own owner flag, which
     * the flusher takes at most once per flush.
     *
     * @param nanoTime the event's time as a {@code System.nanoTime()} reading, or {@link #TIME_OF_CALL}
     * @param payload the payload's first {@code length} bytes, or null when the payload is the low
     *                {@code length} (at most 8) bytes of {@code payloadWord}
     */
    int write(PortableScratch scratch, long nanoTime, EncodedGuid classGuid, EncodedGuid parentGuid, int type, int level, int version,
              int instanceId, int parentInstanceId, ByteBuffer payload, long payloadWord, int length) {
        int space = recordSpace(instanceId != 0, length);
        if (space < 0) {
            return Win32Error.MORE_DATA;
        }
        int threadId = (int) Thread.currentThread().getId();
        if (!scratch.acquireForWriter()) {
            eventsRefused.increment();
            return Win32Error.BUSY;
        }
        int code = Win32Error.SUCCESS;
        try {
            TraceBuffer b = scratch.buffer;
            // Nearly every event finds its scratch registered and holding a buffer of this session with
            // room; everything else is in bufferFor, kept out of here so that the JIT inlines this path.
            if (scratch.registeredWith != this || scratch.bufferSession != this || b == null || b.remaining() < space
                    || closed || logFull) {
                code = bufferFor(scratch, space);
                b = scratch.buffer;
            }
            if (code == Win32Error.SUCCESS) {
                append(b, nanoTime, classGuid, parentGuid, type, level, version, threadId, instanceId, parentInstanceId,
                        payload, payloadWord, length);
            }
        } finally {
            scratch.release();
        }
        return code;
    }

    /** The buffer space a record with {@code length} payload bytes takes, or -1 when no buffer of this session holds it. */
    private int recordSpace(boolean instance, int length) {
        int space = instance ? EtlRecordWriter.instanceRecordSpace(length) : EtlRecordWriter.fullRecordSpace(length);
        int size = (instance ? EtlFormat.INSTANCE_HEADER_SIZE : EtlFormat.FULL_HEADER_SIZE) + length;
        return size > EtlFormat.MAX_RECORD_SIZE || space > bufferSize - EtlFormat.BUFFER_HEADER_SIZE ? -1 : space;
    }

    /**
     * The reserved path, for records that must not be lost (the agent's name rundown): they go into
     * buffers allocated for them outside the pool ({@link ReservedBuffer}), so they neither wait for
     * nor take a buffer the event stream needs, and are never dropped for want of one. A full one goes
     * to the logger, or in buffering mode after the ring ({@link BufferingSink#acceptAfterRing}), where
     * no later event overwrites it. The memory is bounded by what the caller writes there: one record
     * per method and per thread. A lock, no I/O; refused as {@link #write} refuses when the session
     * stops or its log is full.
     */
    int writeReserved(EncodedGuid classGuid, EncodedGuid parentGuid, int type, int level, int version,
                      int instanceId, int parentInstanceId, ByteBuffer payload, int length) {
        int space = recordSpace(instanceId != 0, length);
        if (space < 0) {
            return Win32Error.MORE_DATA;
        }
        int threadId = (int) Thread.currentThread().getId();
        synchronized (reservedLock) {
            if (closed) {
                return Win32Error.INVALID_HANDLE;
            }
            if (logFull) {
                eventsRefused.increment();
                return Win32Error.LOG_FILE_FULL;
            }
            if (reserved == null || reserved.remaining() < space) {
                handOffReserved();
                reserved = new ReservedBuffer(bufferSize);
            }
            append(reserved, TIME_OF_CALL, classGuid, parentGuid, type, level, version, threadId, instanceId, parentInstanceId,
                    payload, 0L, length);
        }
        return Win32Error.SUCCESS;
    }

    /** Hands the partly filled reserved buffer on (flush, stop); the next reserved write starts a new one. */
    private void handOffReserved() {
        synchronized (reservedLock) {
            TraceBuffer b = reserved;
            reserved = null;
            if (b != null && !b.isEmpty()) {
                if (buffering != null) {
                    buffering.acceptAfterRing(b);
                } else {
                    logger.submit(b);
                }
            }
        }
    }

    /** Encodes one record at the end of {@code b}, which has room for it, with the time stamp of now or of {@code nanoTime}. */
    private void append(TraceBuffer b, long nanoTime, EncodedGuid classGuid, EncodedGuid parentGuid, int type, int level, int version,
                        int threadId, int instanceId, int parentInstanceId, ByteBuffer payload, long payloadWord,
                        int length) {
        long ts = nanoTime == TIME_OF_CALL ? clock.now() : clock.at(nanoTime);
        int at = instanceId != 0
                ? EtlRecordWriter.putInstanceHeader(b.words, b.used, type, level, version, threadId, processId, ts,
                        classGuid, instanceId, parentInstanceId, parentGuid, length)
                : EtlRecordWriter.putFullHeader(b.words, b.used, type, level, version, threadId, processId, ts,
                        classGuid, length);
        b.used = payload != null ? EtlRecordWriter.putPayload(b.words, at, payload, length)
                : EtlRecordWriter.putPayloadWord(b.words, at, payloadWord, length);
        b.events++;
        if (ts > b.lastTimeStamp) { // a caller-set time may lie in the past
            b.lastTimeStamp = ts;
        }
    }

    /**
     * The uncommon part of {@link #write}, with the scratch's owner flag held: registers the scratch
     * with this session, refuses the write when the session is stopping or its log is full, and
     * makes sure {@code scratch.buffer} is a buffer of this session with {@code space} bytes free
     * (handing on a full one or one of another session, taking a free one). Returns the Win32 code
     * of the write: SUCCESS when the event can be written.
     */
    private int bufferFor(PortableScratch scratch, int space) {
        // Register before testing 'closed': stop sets 'closed' before it visits the scratches,
        // so either this write sees 'closed' or stop sees this scratch.
        if (scratch.registeredWith != this) {
            scratch.registeredWith = this;
            scratches.add(scratch);
        }
        if (closed) {
            return Win32Error.INVALID_HANDLE;
        }
        if (logFull) {
            eventsRefused.increment();
            return Win32Error.LOG_FILE_FULL;
        }
        TraceBuffer b = scratch.buffer;
        if (b != null && scratch.bufferSession != this) {
            scratch.bufferSession.handOff(b); // a buffer of the session the provider left
            scratch.buffer = null;
            b = null;
        }
        if (b == null || b.remaining() < space) {
            if (b != null) {
                handOff(b);
                scratch.buffer = null;
            }
            b = acquire();
            if (b == null) {
                logger.requestCollect();
                eventsRefused.increment();
                return realTime != null && !realTime.hasConsumer() ? Win32Error.LOG_FILE_FULL
                        : Win32Error.NOT_ENOUGH_MEMORY;
            }
            scratch.buffer = b;
            scratch.bufferSession = this;
        }
        return Win32Error.SUCCESS;
    }

    /**
     * A full buffer leaves its writer: to the logger thread, or in buffering mode straight into the
     * ring (no I/O follows, and a writer short of buffers must find the oldest one there at once).
     */
    void handOff(TraceBuffer b) {
        if (buffering != null) {
            buffering.accept(b);
        } else {
            logger.submit(b);
        }
    }

    TraceBuffer acquire() {
        TraceBuffer b = pool.acquire();
        if (b == null && buffering != null) {
            b = buffering.stealOldest();
        }
        return b;
    }

    /** Moves every partially filled buffer held by a scratch to the logger (flush timer, flush, stop). */
    void collectPartialBuffers() {
        for (PortableScratch s : scratches) {
            release(s);
        }
        if (kernel != null) {
            kernel.collect();
        }
        handOffReserved();
    }

    /**
     * Takes the buffer {@code s} holds (handed to the logger if it has events) and forgets the
     * scratch until it writes again: for the flusher, and for a scratch whose thread has ended.
     * The hand-off happens while the flag is held, so a thread's buffers reach the logger in the
     * order they were filled.
     */
    void release(PortableScratch s) {
        if (!s.acquireForFlusher()) {
            // A writer never gave the flag back (only a fatal error inside a write can do that):
            // its buffer cannot be taken safely, so its events count as lost, as ETW counts them.
            // Counted once: the flush timer and a stop may both have waited for it.
            TraceBuffer stuck = s.buffer;
            if (scratches.remove(s) && stuck != null && s.bufferSession == this) {
                eventsInLostBuffers.add(stuck.events);
            }
            return;
        }
        try {
            if (s.bufferSession == this && s.buffer != null) {
                if (!s.buffer.isEmpty()) {
                    handOff(s.buffer);
                } else {
                    pool.release(s.buffer);
                }
                s.buffer = null;
                s.bufferSession = null;
            }
            if (s.buffer == null) {
                scratches.remove(s);
                if (s.registeredWith == this) {
                    s.registeredWith = null;
                }
            }
        } finally {
            s.releaseFlusher();
        }
    }

    /**
     * The file bytes of {@code b}'s records, in the logger's one image buffer: valid until the next
     * call, logger thread only (the sinks seal and write it at once). Writers never touch it.
     */
    ByteBuffer fileImage(TraceBuffer b) {
        return b.copyRecordsTo(image);
    }

    /** A buffer that cannot be logged: counted as ETW counts it. Logger thread only. */
    void loseBuffer(TraceBuffer b) {
        logBuffersLost++;
        lostBuffer(b);
    }

    /** {@code b}'s events are lost with it (the buffer itself is counted by the caller, as ETW counts it). */
    void lostBuffer(TraceBuffer b) {
        (b.kernel ? kernelEventsInLostBuffers : eventsInLostBuffers).add(b.events - b.notices);
    }

    /** {@code b}'s events reached the file, the ring or a consumer (session notices are nobody's events). */
    void reached(TraceBuffer b) {
        (b.kernel ? kernelEventsWritten : eventsWritten).add(b.events - b.notices);
    }

    /**
     * ETW's EventsLost (EVENT_TRACE_PROPERTIES and the file header): the events that are not in the
     * log, refused before a buffer or lost in a buffer, jetw's and the kernel's (overwritten in tracefs's
     * ring buffers before they were read, refused for want of a buffer, or in a lost buffer).
     */
    long eventsLost() {
        return eventsRefused.sum() + eventsInLostBuffers.sum() + kernelEventsLost();
    }

    /** The kernel events that are not in the log, however they were lost. */
    long kernelEventsLost() {
        return kernel == null ? 0 : kernel.lostBeforeBuffers() + kernelEventsInLostBuffers.sum();
    }

    /**
     * A buffer the logger could not write: counted lost, and the first failure reported at once, once,
     * in the operating system's words (also kept for QUERY and the stop line).
     */
    void writeFailed(int events, boolean kernelBuffer, IOException e) {
        logBuffersLost++;
        (kernelBuffer ? kernelEventsInLostBuffers : eventsInLostBuffers).add(events);
        reportWriteError(e);
    }

    void reportWriteError(IOException e) {
        if (firstWriteError == null) {
            firstWriteError = FileError.inWords(e, FileError.WINDOWS) + " writing " + (sink == null ? "the log file" : sink.logFileName());
            System.err.println("jetw portable: session " + name + ": " + firstWriteError
                    + "; the events of buffers that cannot be written are counted as lost");
        }
    }

    SessionStats flush() throws EtwException {
        collectPartialBuffers();
        awaitRequest(new SessionLogger.Request(false, false), "FlushTrace");
        return stats();
    }

    /**
     * Writes what the session holds now to the new file {@code target} without stopping it: the
     * partly filled buffers are handed on first (into the ring, or queued before the request), the
     * logger takes a snapshot after them ({@link LogSink#snapshot}), and this thread writes it, so the
     * logger goes on taking the writers' buffers meanwhile.
     */
    SessionStats dump(java.nio.file.Path target) throws EtwException {
        collectPartialBuffers();
        SessionLogger.Request r = new SessionLogger.Request(false, false);
        r.dump = true;
        awaitRequest(r, "ControlTraceW(DUMP)");
        SessionDump snapshot = r.snapshot;
        try {
            snapshot.writeTo(target, dumpFiles);
        } catch (IOException e) {
            throw EtwException.file("ControlTraceW(DUMP)", "dump file " + target, e);
        } finally {
            snapshot.close();
        }
        return stats();
    }

    /**
     * Stops: the kernel collector first (its last records still go in), then no more writes, every held
     * buffer written, headers finalized, file released.
     */
    SessionStats stop() throws EtwException {
        stopCollector();
        closed = true;
        collectPartialBuffers();
        awaitRequest(new SessionLogger.Request(true, false), "StopTraceW");
        try {
            loggerThread.join(TimeUnit.SECONDS.toMillis(CONTROL_TIMEOUT_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return stats();
    }

    void addConsumer(java.util.function.Consumer<ByteBuffer> consumer) throws EtwException {
        realTime.addConsumer(consumer);
        awaitRequest(new SessionLogger.Request(false, true), "OpenTraceW");
    }

    void removeConsumer(java.util.function.Consumer<ByteBuffer> consumer) {
        realTime.removeConsumer(consumer);
    }

    boolean isRealTime() {
        return realTime != null;
    }

    /** ETW's advice for a timeout speaks of a provider's enable callback; here the session's own logger is stuck. */
    static final String LOGGER_TIMEOUT_ADVICE = "The session's logger thread is blocked writing its log file (a stalled or"
            + " network file system); the request was not carried out";

    private void awaitRequest(SessionLogger.Request r, String function) throws EtwException {
        logger.submit(r);
        try {
            if (!r.done.await(CONTROL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new EtwException(function, Win32Error.TIMEOUT, "session " + name + ": the logger thread did not answer in "
                        + CONTROL_TIMEOUT_SECONDS + " s", LOGGER_TIMEOUT_ADVICE);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EtwException(function, Win32Error.TIMEOUT, "session " + name + ": interrupted", null);
        }
        if (r.error != null) {
            throw EtwException.file(function, "session " + name + " writing " + (sink == null ? "its log file" : sink.logFileName()), r.error);
        }
    }

    /** Stops the kernel collector, once; its line goes into the statistics. Also on a failed start. */
    void stopCollector() {
        if (collector != null && kernelStopLine == null) {
            try {
                kernelStopLine = collector.stop();
            } catch (RuntimeException e) {
                kernelStopLine = "the kernel collector failed to stop: " + e;
                notice(SessionNotice.PROBLEM, kernelStopLine, TIME_OF_CALL);
            }
        }
    }

    SessionStats stats() {
        SessionStats s = new SessionStats(config.sessionName(), sink == null ? null : sink.logFileName(),
                pool.numberOfBuffers(), pool.freeBuffers(), eventsLost(), buffersWritten, logBuffersLost,
                realTimeBuffersLost, loggerThread.getId())
                .withOutcomes(eventsWritten.sum(), eventsRefused.sum(), eventsInLostBuffers.sum(), firstWriteError);
        if (kernel == null) {
            return s;
        }
        String line = kernelStopLine != null ? kernelStopLine : collector != null ? collector.status() : "not collected";
        return s.withKernel(kernelEventsWritten.sum(), kernelEventsLost(), line);
    }

    /** The logfile header of a file of this session, with the current counters. */
    EtlLogfileHeader newLogfileHeader(String logFileName) {
        SessionConfig c = config;
        EtlLogfileHeader h = new EtlLogfileHeader();
        h.bufferSize = bufferSize;
        h.numberOfProcessors = processors;
        h.cpuSpeedMhz = environment.cpuSpeedMhz;
        h.maximumFileSizeMb = c.maximumFileSizeMb();
        // The header's LogFileMode has REAL_TIME and BUFFERING cleared, as ETW writes it.
        h.logFileMode = c.logFileModeBits() & ~(LogFileMode.REAL_TIME.bits() | LogFileMode.BUFFERING.bits());
        h.eventsLost = (int) Math.min(Integer.MAX_VALUE, eventsLost());
        h.buffersLost = (int) Math.min(Integer.MAX_VALUE, logBuffersLost);
        h.timeZoneBias = environment.timeZoneBias;
        h.standardName = environment.standardName;
        h.daylightName = environment.daylightName;
        h.daylightBias = environment.daylightBias;
        h.bootTime = environment.bootTime(clock.startFiletime);
        h.perfFreq = SessionClock.TICKS_PER_SECOND;
        h.startTime = clock.startFiletime;
        h.systemTime = clock.startRaw;
        h.clockType = clock.reservedFlags();
        h.endTime = clock.nowFiletime();
        h.loggerName = name;
        h.logFileName = logFileName;
        h.writer = SessionEnvironment.WRITER;
        if (c.has(LogFileMode.BUFFERING)) {
            // The cleared BUFFERING bit cannot tell readers that the ring drops its oldest buffers by design.
            h.ring = "buffering ring of " + Math.max(1, c.minimumBuffers()) + " buffers: when it is full its oldest buffer"
                    + " is overwritten, so calls begun in overwritten buffers have an END without START in this file";
        }
        h.threadId = (int) Thread.currentThread().getId();
        h.processId = processId;
        h.loggerId = loggerId;
        return h;
    }

    /** UPDATE: the flush timer and MaximumBuffers change on a running session. */
    void update(SessionConfig c) {
        flushTimerSeconds = c.flushTimerSeconds();
        pool.setMaximum(Math.max(c.maximumBuffers(), config.minimumBuffers()));
        config = config.toBuilder().flushTimerSeconds(c.flushTimerSeconds()).maximumBuffers(c.maximumBuffers()).build();
    }
}
