package dev.jetw.agent.core.instrument;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks the advice parameter that receives the instrumented method's id as a constant. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@interface MethodId {
}
