/**
 * Byte Buddy: {@link dev.jetw.agent.core.instrument.Instrumenter} puts the call advice into the selected methods
 * (woven by {@link dev.jetw.agent.core.instrument.LinkedCallWeaver} into class files of Java 7 and later,
 * docs/weaving.md; Byte Buddy's Advice with the byte-checked entry into older ones) and the API advice into {@code dev.jetw.api.Jetw}, restores the classes at
 * detach, and keeps classes with NaN constants and trivial methods out. At start-up
 * {@link dev.jetw.agent.core.instrument.FirstMatchTransformer} stands in for it, without Byte Buddy, until the first
 * class the options may select loads, and then hands the loads to
 * {@link dev.jetw.agent.core.instrument.DirectWeavingTransformer}, which weaves Java 7+ class files without Byte Buddy's
 * {@code AgentBuilder} ({@link dev.jetw.agent.core.instrument.DirectWeaving}, docs/weaving.md); at attach {@link dev.jetw.agent.core.instrument.AttachRamp} instruments the
 * loaded classes in tiers at a bounded rate, its own retransformation calls woven by that same direct path, leaving the methods running hot out (docs/attach-ramp.md). Uses the
 * writing (rundown), exclusion
 * ({@code hotMethods=}), methods and options rooms.
 */
package dev.jetw.agent.core.instrument;
