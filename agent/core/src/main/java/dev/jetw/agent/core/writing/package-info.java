/**
 * What writes jetw's method events: {@link dev.jetw.agent.core.writing.TraceWriter} (the advice's handler, the
 * hot path), {@link dev.jetw.agent.core.writing.HandoffWriter} (cross-thread DEQUEUEs), their per-thread state,
 * the method and thread {@link dev.jetw.agent.core.writing.Rundown}, and the payload helpers. Uses the
 * exclusion, methods and options rooms.
 */
package dev.jetw.agent.core.writing;
