package dev.jetw.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks a method, or every method of a type, for tracing by the jetw agent. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.CONSTRUCTOR})
public @interface Traced {

    /** ETW level of the START/END events: 1 critical .. 5 verbose; 0 = the rule's level. */
    int level() default 0;
}
