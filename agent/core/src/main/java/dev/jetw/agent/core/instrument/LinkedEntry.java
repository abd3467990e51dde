package dev.jetw.agent.core.instrument;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the advice parameter whose value is the method's linked entry: one invokedynamic, bootstrapped by
 * {@link dev.jetw.bootstrap.MethodEntries#link} with the method id, returning the token for the exit.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@interface LinkedEntry {
}
