/**
 * The JVM runtime events ({@code jvm=}, docs/jvm-events.md): {@link dev.jetw.agent.core.runtime.RuntimeEvents}
 * starts JFR streaming (agent/jfr, Java 17+) or the GC notifications, which write through
 * {@link dev.jetw.agent.core.runtime.RuntimeEventWriter}. The source interface and the writer are public for
 * agent/jfr. Uses the writing room (payload helpers).
 */
package dev.jetw.agent.core.runtime;
