package dev.jetw.agent.core.handoff;

import dev.jetw.bootstrap.Dispatcher;
import dev.jetw.bootstrap.Handoff;
import dev.jetw.bootstrap.LinkedCallable;
import dev.jetw.bootstrap.LinkedRunnable;
import dev.jetw.bootstrap.LinkedTask;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.utility.JavaModule;

import java.lang.instrument.Instrumentation;
import java.util.Collection;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.none;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Puts {@link HandoffAdvice} into the JDK's hand-off points (docs/cross-thread.md): a transformer of its
 * own, apart from the method instrumentation, matching a fixed list of JDK classes by name. Like the
 * method advice it changes no class format (advice only, no field or method added), so the classes
 * already loaded — all of them, at attach and usually at start-up too — are retransformed, and
 * {@link #reset} puts their original bytes back at detach.
 *
 * <p>The boot-class-path classes the advice calls are loaded here, before the first transformation,
 * so that the first hand-off after attach does not load a class from inside an
 * executor's lock.
 */
public final class HandoffInstrumenter {

    private final Instrumentation inst;
    private final boolean verbose;
    private ResettableClassFileTransformer transformer;
    private volatile int transformed;

    public HandoffInstrumenter(Instrumentation inst, boolean verbose) {
        this.inst = inst;
        this.verbose = verbose;
    }

    public void install() {
        preload();
        transformer = dev.jetw.agent.core.instrument.AgentBuilders.of(new ByteBuddy().with(TypeValidation.DISABLED))
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .with(new Listener())
                .assureReadEdgeTo(inst, Handoff.class)
                .ignore(none())
                .type(named("java.util.concurrent.FutureTask"))
                .transform((b, t, l, m, pd) -> b
                        .visit(Advice.to(HandoffAdvice.FutureTaskOfRunnable.class).on(isConstructor().and(takesArguments(2))
                                .and(takesArgument(0, Runnable.class))))
                        .visit(Advice.to(HandoffAdvice.FutureTaskOfCallable.class).on(isConstructor().and(takesArguments(1))
                                .and(takesArgument(0, Callable.class)))))
                .type(named("java.util.concurrent.ThreadPoolExecutor"))
                .transform((b, t, l, m, pd) -> b
                        .visit(advice(HandoffAdvice.PoolExecute.class, "execute", 1, Runnable.class))
                        .visit(Advice.to(HandoffAdvice.ShutdownNow.class).on(named("shutdownNow").and(takesArguments(0)))))
                .type(named("java.util.concurrent.ForkJoinPool"))
                .transform((b, t, l, m, pd) -> b
                        .visit(Advice.to(HandoffAdvice.ForkJoinRunnable.class).on(namedOneOf("execute", "submit").and(isPublic())
                                .and(takesArgument(0, Runnable.class))))
                        .visit(advice(HandoffAdvice.ForkJoinCallable.class, "submit", 1, Callable.class))
                        .visit(advice(HandoffAdvice.ForkJoinInvokeAll.class, "invokeAll", 1, Collection.class)))
                .type(named("java.util.concurrent.ScheduledThreadPoolExecutor"))
                .transform((b, t, l, m, pd) -> b
                        .visit(Advice.to(HandoffAdvice.ScheduleRunnable.class).on(named("schedule").and(takesArguments(3))
                                .and(takesArgument(0, Runnable.class)).and(takesArgument(2, TimeUnit.class))))
                        .visit(Advice.to(HandoffAdvice.ScheduleCallable.class).on(named("schedule").and(takesArguments(3))
                                .and(takesArgument(0, Callable.class)).and(takesArgument(2, TimeUnit.class))))
                        .visit(Advice.to(HandoffAdvice.ScheduleAtFixedRate.class).on(named("scheduleAtFixedRate").and(takesArguments(4))
                                .and(takesArgument(3, TimeUnit.class))))
                        .visit(Advice.to(HandoffAdvice.ScheduleWithFixedDelay.class).on(named("scheduleWithFixedDelay").and(takesArguments(4))
                                .and(takesArgument(3, TimeUnit.class)))))
                .type(named("java.util.concurrent.CompletableFuture$ThreadPerTaskExecutor"))
                .transform((b, t, l, m, pd) -> b.visit(advice(HandoffAdvice.ThreadPerTaskExecute.class, "execute", 1, Runnable.class)))
                .installOn(inst);
    }

    /** Restores the JDK classes' original bytes; true when all were reset. */
    public boolean reset() {
        ResettableClassFileTransformer t = transformer;
        transformer = null;
        return t == null || t.reset(inst, AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
    }

    /** How many JDK classes carry the hand-off advice (status). */
    public int transformedClasses() {
        return transformed;
    }

    private static AsmVisitorWrapper advice(Class<?> advice, String method, int arguments, Class<?> first) {
        return Advice.to(advice).on(named(method).and(takesArguments(arguments)).and(takesArgument(0, first)));
    }

    private static void preload() {
        Class<?>[] classes = {Handoff.class, LinkedTask.class, LinkedRunnable.class, LinkedCallable.class};
        for (Class<?> c : classes) {
            try {
                Class.forName(c.getName(), true, c.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("jetw bootstrap class missing: " + c.getName(), e);
            }
        }
    }

    private final class Listener extends AgentBuilder.Listener.Adapter {
        @Override
        public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded,
                                     DynamicType dynamicType) {
            transformed++;
            if (verbose) {
                System.err.println("jetw: hand-off advice in " + type.getName());
            }
        }

        @Override
        public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable error) {
            Dispatcher.failed(error);
            if (verbose) {
                System.err.println("jetw: cannot put hand-off advice in " + typeName + ": " + error);
            }
        }
    }
}
