/**
 * The ETW session the agent starts and owns ({@link dev.jetw.agent.core.session.TraceSession}), what became of
 * its events ({@link dev.jetw.agent.core.session.EventOutcomes}) and where dumps go by default. Uses no other room.
 */
package dev.jetw.agent.core.session;
