package dev.jetw.etw;

/**
 * The public entry point for one ETW session: start it, query, flush, update and stop it, over
 * whichever {@link EtwBackend} is given. Deliberately thin: the orphan policy, kernel correlation and
 * every Windows detail live in the backends, so this class behaves the same over both.
 *
 * <p>The session is addressed by its name, as ETW does. Methods are synchronized because stop is
 * typically called from a shutdown hook while another thread may still query; none of them is on
 * the per-event path.
 */
public final class SessionController implements AutoCloseable {

    private final EtwBackend backend;
    private SessionConfig config;
    private SessionStats lastStats;
    private boolean stopped;

    private SessionController(EtwBackend backend, SessionConfig config, SessionStats started) {
        this.backend = backend;
        this.config = config;
        this.lastStats = started;
    }

    /**
     * Starts the session described by {@code config}; a running session of the same name is handled
     * by {@link SessionConfig#orphanPolicy()} in the backend.
     */
    public static SessionController start(EtwBackend backend, SessionConfig config) throws EtwException {
        if (backend == null) {
            throw new NullPointerException("backend");
        }
        if (config == null) {
            throw new NullPointerException("config");
        }
        SessionStats started = backend.startSession(config);
        return new SessionController(backend, config, started);
    }

    /** The session's current statistics (ControlTrace QUERY). */
    public synchronized SessionStats query() throws EtwException {
        requireRunning("query");
        return remember(backend.querySession(config.sessionName()));
    }

    /** Writes the session's buffers out now (ControlTrace FLUSH) and returns the statistics after it. */
    public synchronized SessionStats flush() throws EtwException {
        requireRunning("flush");
        return remember(backend.flushSession(config.sessionName()));
    }

    /**
     * Changes the running session's properties (ControlTrace UPDATE). Only the session name must stay
     * the same; which other properties ETW actually changes is the backend's business (see
     * {@link EtwBackend#updateSession}). {@link #config()} returns {@code newConfig} afterwards.
     *
     * @throws ConfigException if {@code newConfig} names another session
     */
    public synchronized SessionStats update(SessionConfig newConfig) throws EtwException {
        if (newConfig == null) {
            throw new NullPointerException("newConfig");
        }
        requireRunning("update");
        if (!newConfig.sessionName().equals(config.sessionName())) {
            throw new ConfigException(SessionConfigParser.NAME, newConfig.sessionName(),
                    "update keeps the session name; this session is " + config.sessionName());
        }
        SessionStats stats = backend.updateSession(newConfig);
        config = newConfig;
        return remember(stats);
    }

    /**
     * Stops the session and returns its final statistics, or the last known ones when it was not
     * running any more (or when stop was already called): stopping twice is not an error. If the
     * backend fails, the controller stays running so stop can be retried.
     */
    public synchronized SessionStats stop() throws EtwException {
        if (stopped) {
            return lastStats;
        }
        SessionStats last = backend.stopSession(config.sessionName());
        stopped = true;
        return remember(last);
    }

    /** Same as {@link #stop()}, for try-with-resources. */
    @Override
    public void close() throws EtwException {
        stop();
    }

    /** The configuration the session runs with (the latest one passed to {@link #update}). */
    public synchronized SessionConfig config() {
        return config;
    }

    public EtwBackend backend() {
        return backend;
    }

    /** The statistics of the latest successful call (start, query, flush, update or stop). */
    public synchronized SessionStats lastStats() {
        return lastStats;
    }

    public synchronized boolean isStopped() {
        return stopped;
    }

    /** Keeps non-null statistics as the last known ones and returns the last known ones. */
    private SessionStats remember(SessionStats stats) {
        if (stats != null) {
            lastStats = stats;
        }
        return lastStats;
    }

    private void requireRunning(String what) {
        if (stopped) {
            throw new IllegalStateException("cannot " + what + " session " + config.sessionName()
                    + ": it was stopped; start a new SessionController");
        }
    }
}
