/**
 * Cross-thread links, the instrumentation side: {@link dev.jetw.agent.core.handoff.HandoffInstrumenter} weaves
 * the hand-off calls into the JDK's executors with ASM (docs/cross-thread.md); the DEQUEUE events are written by the
 * writing room's HandoffWriter. Uses no other room.
 */
package dev.jetw.agent.core.handoff;
