/**
 * Which methods are traced: {@link dev.jetw.agent.core.methods.Selection} applies the rules to classes and
 * methods, the budget shares out maxMethods, and {@link dev.jetw.agent.core.methods.MethodRegistry} holds the
 * selected methods' ids, levels and thresholds (the arrays the hot path reads). Uses the options room.
 */
package dev.jetw.agent.core.methods;
