package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.methods.Selection;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the application is doing at attach, from a few samples of its threads' stacks and the JVM's list of compiled
 * methods (option-free: see docs/attach-ramp.md): per class, whether it is hot (a method on the stack of a thread on
 * CPU, at any depth, or compiled by the JIT), only seen waiting (on the stack of a sleeping, waiting, blocked or native
 * thread: a slow call, or one near I/O), or neither. The methods among the innermost {@link #HOT_FRAMES} frames of a
 * thread on CPU are running hot. Methods are known by class and name only (a stack frame has no descriptor), so every
 * overload of a hot method counts as hot.
 */
public final class RunningMethods {

    /** The frames of a running thread, counted from its innermost frame of a class the options may select, that are hot. */
    static final int HOT_FRAMES = 4;

    /** A class's place in the ramp (AttachRamp: in this order; with attachHot=now the first and the third together). */
    public enum Tier {
        /** Seen only on the stacks of threads not on CPU, not compiled: slow calls, near I/O. */
        WAITING,
        /** Not seen in any sample, not compiled: rarely called. */
        NOT_SEEN,
        /**
         * On a running stack or compiled, or with a small method their code calls (CalledFromCompiled): its retransformation
         * costs recompilation; its running-hot methods get no advice.
         */
        HOT
    }

    // Written by the ramp's thread while it samples; read by any thread whose class loads later (the transformer).
    private final Set<String> hotMethods = ConcurrentHashMap.newKeySet();
    private final Map<String, Tier> tiers = new ConcurrentHashMap<>();
    /** Classes the hot classes' bytecode calls a small method of (CalledFromCompiled): hot too. */
    private final Set<String> calledFromCompiled = ConcurrentHashMap.newKeySet();
    private volatile Set<String> compiled = java.util.Collections.emptySet();
    private volatile int samples;

    /** Adds one sample of every thread's stack but the agent's own ({@code jetw-*}) threads. */
    void sample(Map<Thread, StackTraceElement[]> stacks, Selection selection) {
        samples = samples + 1; // one writer
        for (Map.Entry<Thread, StackTraceElement[]> e : stacks.entrySet()) {
            Thread t = e.getKey();
            if (t.getName().startsWith("jetw-")) {
                continue;
            }
            StackTraceElement[] frames = e.getValue();
            boolean onCpu = t.getState() == Thread.State.RUNNABLE && frames.length > 0 && !frames[0].isNativeMethod();
            ClassLoader loader = t.getContextClassLoader();
            int candidates = 0;
            for (StackTraceElement f : frames) {
                String c = f.getClassName();
                if (selection.rejectsByName(c, loader == null ? ClassLoader.getSystemClassLoader() : loader)) {
                    continue;
                }
                if (onCpu) {
                    if (candidates++ < HOT_FRAMES) {
                        hotMethods.add(c + '.' + f.getMethodName());
                    }
                    tiers.put(c, Tier.HOT);
                } else if (!tiers.containsKey(c)) {
                    tiers.put(c, Tier.WAITING);
                }
            }
        }
    }

    /** True when {@code className.methodName} (any descriptor) was running hot in a sample. */
    public boolean isHot(String className, String methodName) {
        return hotMethods.contains(className + '.' + methodName);
    }

    /** The classes holding a method compiled by the JIT, read once before the samples (CompiledClasses). */
    void compiled(Set<String> classNames) {
        compiled = classNames;
    }

    /** A class with a small method the hot classes' code calls (CalledFromCompiled, maybe inlined there): hot too. */
    void calledFromCompiled(String className) {
        calledFromCompiled.add(className);
    }

    public Tier tierOf(String className) {
        if (compiled.contains(className) || calledFromCompiled.contains(className)) {
            return Tier.HOT;
        }
        Tier t = tiers.get(className);
        return t == null ? Tier.NOT_SEEN : t;
    }

    /**
     * Why a hot class is hot, as the trace's record of a class attachHot=skip left alone says it (JetwSchema.LEFT_ALONE_WHY):
     * on a running stack first (the most direct evidence), then compiled, then called small by hot code.
     */
    String hotReason(String className) {
        java.util.List<String> why = dev.jetw.etl.JetwSchema.LEFT_ALONE_WHY;
        if (tiers.get(className) == Tier.HOT) {
            return why.get(0);
        }
        return compiled.contains(className) ? why.get(1) : why.get(2);
    }

    /** True when a class holds a method compiled by the JIT at attach. */
    boolean isCompiled(String className) {
        return compiled.contains(className);
    }

    /** Hot methods by class and name (each counts its overloads once). */
    public int hotMethodCount() {
        return hotMethods.size();
    }

    public int samples() {
        return samples;
    }
}
