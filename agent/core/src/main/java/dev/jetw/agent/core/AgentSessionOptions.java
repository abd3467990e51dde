package dev.jetw.agent.core;

import dev.jetw.agent.core.options.AgentOptions;
import dev.jetw.etw.SessionConfig;

/**
 * The session part of an agent option string, parsed exactly as {@code -javaagent:jetw-agent.jar=OPTIONS}
 * parses it (defaults, validation, messages), for code outside the agent that must start the session
 * the agent would start: the selftest ({@code dev.jetw.selftest}).
 */
public final class AgentSessionOptions {

    private final AgentOptions options;

    private AgentSessionOptions(AgentOptions options) {
        this.options = options;
    }

    /** @throws dev.jetw.etw.ConfigException with the agent's one-line message for a bad option */
    public static AgentSessionOptions parse(String options) {
        return new AgentSessionOptions(AgentOptions.parse(options));
    }

    /** The session the agent would start. */
    public SessionConfig session() {
        return options.session;
    }

    /** The level at which the agent enables its provider in the session ({@code enableLevel=}). */
    public int enableLevel() {
        return options.enableLevel;
    }

    /** The backend the agent would use ({@code backend=}: windows, portable or auto). */
    public String backend() {
        return options.backend;
    }
}
