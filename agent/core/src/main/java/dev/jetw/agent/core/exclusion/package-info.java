/**
 * Adaptive exclusion: {@link dev.jetw.agent.core.exclusion.AdaptiveExclusion} decides which hot methods stop
 * emitting or get a threshold, and {@link dev.jetw.agent.core.exclusion.ExcludedMethodRemover} takes the advice
 * out of the classes where muting is not enough. Uses the methods and options rooms.
 */
package dev.jetw.agent.core.exclusion;
