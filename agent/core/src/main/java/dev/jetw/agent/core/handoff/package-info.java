/**
 * Cross-thread links, the instrumentation side: {@link dev.jetw.agent.core.handoff.HandoffInstrumenter} puts
 * the hand-off advice into the JDK's executors (docs/cross-thread.md); the DEQUEUE events are written by the
 * writing room's HandoffWriter. Uses no other room.
 */
package dev.jetw.agent.core.handoff;
