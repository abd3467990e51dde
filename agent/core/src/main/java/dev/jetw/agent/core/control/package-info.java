/**
 * The control channel between the attach tool and an agent already in the JVM (docs/agent-dist.md): the
 * agent's side ({@link dev.jetw.agent.core.control.ControlChannel}), the tool's side
 * ({@link dev.jetw.agent.core.control.ControlClient}, called by agent/dist by name) and the wire format.
 * Uses no other room.
 */
package dev.jetw.agent.core.control;
