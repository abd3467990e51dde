package dev.jetw.etw;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A test double for {@link EtwBackend} that records each session call as one line
 * ({@code "stopSession(jetw)"}) with the configuration it received, and answers with statistics whose
 * {@code buffersWritten} is the call's sequence number, so a test can tell which call's answer it got.
 * {@link #failNext} makes the next call throw the given exception; {@link #stopAnswersNotRunning}
 * makes stop report "was not running" (null), as backends do for ERROR_WMI_INSTANCE_NOT_FOUND.
 * {@link #provider}, when set, is what a provider registration gets.
 */
final class RecordingBackend implements EtwBackend {

    final List<String> calls = new ArrayList<>();
    final List<SessionConfig> configs = new ArrayList<>();
    EtwException failNext;
    boolean stopAnswersNotRunning;
    ProviderBackend provider;

    @Override
    public String name() {
        return "recording";
    }

    @Override
    public SessionStats startSession(SessionConfig config) throws EtwException {
        configs.add(config);
        return answer("startSession(" + config.sessionName() + ")", config.sessionName());
    }

    @Override
    public SessionStats querySession(String sessionName) throws EtwException {
        return answer("querySession(" + sessionName + ")", sessionName);
    }

    @Override
    public SessionStats flushSession(String sessionName) throws EtwException {
        return answer("flushSession(" + sessionName + ")", sessionName);
    }

    @Override
    public SessionStats updateSession(SessionConfig config) throws EtwException {
        configs.add(config);
        return answer("updateSession(" + config.sessionName() + ")", config.sessionName());
    }

    @Override
    public SessionStats stopSession(String sessionName) throws EtwException {
        SessionStats s = answer("stopSession(" + sessionName + ")", sessionName);
        return stopAnswersNotRunning ? null : s;
    }

    @Override
    public List<String> listSessions() {
        calls.add("listSessions()");
        return new ArrayList<>();
    }

    @Override
    public ProviderBackend registerProvider(UUID controlGuid, List<UUID> eventClassGuids, EnableListener listener) {
        if (provider != null) {
            return provider;
        }
        throw new UnsupportedOperationException("the controller never registers providers");
    }

    @Override
    public void enableProvider(String sessionName, UUID controlGuid, int level, int enableFlags) {
        throw new UnsupportedOperationException("the controller never enables providers");
    }

    @Override
    public void disableProvider(String sessionName, UUID controlGuid) {
        throw new UnsupportedOperationException("the controller never disables providers");
    }

    private SessionStats answer(String call, String sessionName) throws EtwException {
        calls.add(call);
        if (failNext != null) {
            EtwException e = failNext;
            failNext = null;
            throw e;
        }
        return new SessionStats(sessionName, null, 8, 8, 0, calls.size(), 0, 0, 1234);
    }
}
