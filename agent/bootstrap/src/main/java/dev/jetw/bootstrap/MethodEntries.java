package dev.jetw.bootstrap;

import java.lang.invoke.CallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;
import java.util.Arrays;

/**
 * How an instrumented method's entry reaches {@link Dispatcher#enter}, and how the agent mutes it: once
 * the handler has said a method writes nothing more in this attach (excluded, or pushed out of the method
 * budget), its calls should cost as little as the method without advice, without retransforming its class
 * (a retransformation makes the JVM throw away every compiled method that inlined any method of the class,
 * and the JIT compile them again: BENCHMARKS.md §7, Session 8).
 *
 * <p><b>Linked entries</b> (class files of Java 7 and later): the advice's entry is one invokedynamic,
 * linked by {@link #link} to a {@link MutableCallSite} whose target calls {@code Dispatcher.enter(id)}.
 * {@link #mute} sets the target to a constant 0: the JIT treats a mutable call site's target as a constant
 * (and recompiles what inlined it when it changes), so a muted method's advice compiles to nothing but
 * the exception handler around its body, the exit's {@code token != 0} test included. A method muted early,
 * as most are (256 calls into a run), is muted before the JIT compiles its callers, and no compiled code
 * is thrown away for it.
 *
 * <p><b>Byte entries</b> (older class files, which cannot hold invokedynamic): the advice reads
 * {@link #MUTED} itself before it calls {@code Dispatcher.enter}: a branch in the advice is profiled per
 * method, so the JIT compiles a muted method's entry as one byte read and a jump. The same test inside
 * {@code enter} shares one profile between all methods, and the JIT then inlined the handler's whole entry
 * into every method, excluded or not.
 *
 * <p>Both are per attach: installing a handler ({@link #reset}) or removing it ({@link #forget}) unmutes
 * every method, since the next attach numbers its methods afresh.
 */
public final class MethodEntries {

    /** Method ids that can be muted; a higher id's calls keep going to the handler, which returns as before. */
    public static final int MUTABLE_IDS = 1 << 16;

    /**
     * Index = method id: nonzero once muted. Final, so that the JIT takes its address and length as
     * constants; plain, not volatile: a thread that sees a change late makes a few more calls into the
     * handler, which returns as before.
     */
    public static final byte[] MUTED = new byte[MUTABLE_IDS];

    private static final MethodHandle ENTER;
    private static final MethodHandle MUTED_ENTER = MethodHandles.constant(long.class, 0L);
    /** Index = method id: the call site of its linked entry (the latest, if its class was transformed again). */
    private static final MutableCallSite[] SITES = new MutableCallSite[MUTABLE_IDS];

    static {
        try {
            ENTER = MethodHandles.lookup().findStatic(Dispatcher.class, "enter", MethodType.methodType(long.class, int.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private MethodEntries() {
    }

    /** The bootstrap method of a linked entry: {@code ()J}, bound to the method's id. */
    public static CallSite link(MethodHandles.Lookup caller, String name, MethodType type, int methodId) {
        if (methodId <= 0 || methodId >= MUTABLE_IDS) {
            return new MutableCallSite(live(methodId));
        }
        synchronized (SITES) {
            MutableCallSite site = new MutableCallSite(MUTED[methodId] != 0 ? MUTED_ENTER : live(methodId));
            SITES[methodId] = site;
            return site;
        }
    }

    /**
     * Mutes method {@code methodId} for the rest of the attach: only for a method whose entry returns 0
     * from now on. The first call switches its call site (the JVM may recompile code that inlined it);
     * later calls, which come only from threads that saw the change late, do nothing.
     */
    public static void mute(int methodId) {
        if (methodId <= 0 || methodId >= MUTABLE_IDS || MUTED[methodId] != 0) {
            return;
        }
        synchronized (SITES) { // with the switch, so that a reset cannot come between the byte and the target
            if (MUTED[methodId] != 0) {
                return;
            }
            MUTED[methodId] = 1;
            MutableCallSite site = SITES[methodId];
            if (site != null) {
                site.setTarget(MUTED_ENTER);
            }
        }
    }

    /** Whether {@code methodId} is muted (for tests). */
    public static boolean isMuted(int methodId) {
        return methodId > 0 && methodId < MUTABLE_IDS && MUTED[methodId] != 0;
    }

    /**
     * Unmutes every method. Call sites still known are given their live target back: after a detach their
     * classes have their original bytes again, so there are none, unless a handler replaces another within
     * an attach (tests); then the next attach's classes link afresh.
     */
    static void reset() {
        synchronized (SITES) {
            for (int id = 1; id < MUTABLE_IDS; id++) {
                MutableCallSite site = SITES[id];
                if (site != null && MUTED[id] != 0) {
                    site.setTarget(live(id));
                }
            }
            Arrays.fill(MUTED, (byte) 0);
        }
    }

    /** Forgets every call site (a detach: their classes are restored, and the next attach numbers methods afresh). */
    static void forget() {
        synchronized (SITES) {
            Arrays.fill(SITES, null);
            Arrays.fill(MUTED, (byte) 0);
        }
    }

    private static MethodHandle live(int methodId) {
        return MethodHandles.insertArguments(ENTER, 0, methodId);
    }
}
