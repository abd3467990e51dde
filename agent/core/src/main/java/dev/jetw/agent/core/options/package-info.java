/**
 * The agent's option string, parsed and validated ({@link dev.jetw.agent.core.options.AgentOptions}): the
 * include, exclude and annotation rules and their patterns, durations, the {@code jvm=} families, the session
 * keys handed to native-bridge, and the {@code hotMethods=} file. Depends on no other room.
 */
package dev.jetw.agent.core.options;
