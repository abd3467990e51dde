package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.methods.Selection;
import dev.jetw.bootstrap.Dispatcher;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;

/**
 * premain's transformer (issue 31): until a class the options could select loads, the agent is this one plain
 * {@link ClassFileTransformer} and a name test per class ({@link SelectableClasses}); Byte Buddy is not loaded, no
 * advice is prepared, and no loaded class is scanned beyond its name. The first class that may be selected brings
 * the instrumentation up ({@link BringUp}, on the thread loading that class) and is transformed there and then;
 * every later class load that may be selected goes through here to that transformer too.
 *
 * <p>Why loads keep coming through here: the JVM hands each class load to the transformers registered when the load
 * began, so one registered during a load on another thread would miss that class. Byte Buddy's own transformer is
 * registered as well (retransformations at detach and by the adaptive remover go through it), and leaves the loads
 * to this one ({@link ClassDescriptions}, told by {@link #isForwarding}).
 *
 * <p>Threads and loaders: the bring-up runs under a lock; another thread loading a selectable class meanwhile
 * waits for it (a fraction of a second, once). The bring-up only loads the agent's own classes (Byte Buddy's, jetw's:
 * never selected, whatever the options) and the JDK's, which are turned away here by name before the lock, so it
 * never waits for itself or for a thread that waits for it. Nothing escapes: a failure is counted ({@link Dispatcher#failed}) and the class loads unchanged.
 */
public final class FirstMatchTransformer implements ClassFileTransformer {

    /**
     * What the agent brings up at the first match (the instrumentation through
     * {@link Instrumenter#installRoutingLoads}, and what runs beside it); returns the transformer later loads go to,
     * or null if it failed. {@code retransformLoaded}: a class loaded before the agent may be selected.
     */
    public interface BringUp {
        ClassFileTransformer bringUp(boolean retransformLoaded);
    }

    /** On a thread while a load is handed to the instrumentation from here: the internal name of the class handed over. */
    private static final ThreadLocal<String> FORWARDING = new ThreadLocal<>();

    private final Instrumentation inst;
    private final SelectableClasses classes;
    private final BringUp bringUp;
    private final ModuleAwareCall call = new ModuleAwareCall();
    private final Object lock = new Object();
    /** The instrumentation's transformer once brought up. */
    private volatile ClassFileTransformer target;
    /** Set when the bring-up failed or the agent detached: everything loads unchanged from then on. */
    private volatile boolean closed;
    private Thread bringingUp;

    public FirstMatchTransformer(Instrumentation inst, Selection selection, BringUp bringUp) {
        this.inst = inst;
        this.classes = new SelectableClasses(selection);
        this.bringUp = bringUp;
    }

    /**
     * Registers this transformer, then looks at the classes loaded before it: if one of them may be selected the
     * instrumentation comes up now, retransforming them (true), else at the first match (false).
     */
    public boolean register() {
        inst.addTransformer(this, true);
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (classes.mayBeSelected(c)) {
                return bringUpOnce(true) != null;
            }
        }
        return false;
    }

    /** Whether the instrumentation is up. */
    public boolean isBroughtUp() {
        return target != null;
    }

    /** Detach: later loads are left alone. */
    public void close() {
        closed = true;
        inst.removeTransformer(this);
    }

    /** True while this thread's class load is being handed to the instrumentation by a {@link FirstMatchTransformer}. */
    static boolean isForwarding() {
        return FORWARDING.get() != null;
    }

    /**
     * True when this thread is handing {@code internalName}'s load over right now: not for another class whose load
     * the hand-over itself causes (the JVM gives that one to every registered transformer too, while the flag is set).
     */
    static boolean isHandingOver(String internalName) {
        return internalName.equals(FORWARDING.get());
    }

    /** This thread hands {@code internalName}'s load over (here, or at attach in {@link DirectWeavingTransformer}). */
    static void beginHandOver(String internalName) {
        FORWARDING.set(internalName);
    }

    static void endHandOver() {
        FORWARDING.remove();
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined, ProtectionDomain pd,
                            byte[] classFile) {
        // Retransformations are Byte Buddy's own transformer's; a load during a load this thread hands over is left
        // alone, as Byte Buddy's circularity lock would.
        if (classBeingRedefined != null || className == null || closed || isForwarding()) {
            return null;
        }
        try {
            if (!classes.mayBeSelected(className, loader, classFile)) {
                return null;
            }
            ClassFileTransformer t = target;
            if (t == null) {
                t = bringUpOnce(false);
            }
            if (t == null) {
                return null;
            }
            beginHandOver(className);
            try {
                return call.transform(t, loader, className, pd, classFile);
            } finally {
                endHandOver();
            }
        } catch (Throwable e) {
            Dispatcher.failed(e);
            return null;
        }
    }

    /** The instrumentation's transformer, brought up by the first caller; null when it failed or on the bringing-up thread. */
    private ClassFileTransformer bringUpOnce(boolean retransformLoaded) {
        synchronized (lock) {
            if (target != null || closed || bringingUp == Thread.currentThread()) {
                return target;
            }
            bringingUp = Thread.currentThread();
            try {
                ClassFileTransformer t = bringUp.bringUp(retransformLoaded);
                if (t == null) {
                    closed = true;
                }
                target = t;
            } catch (Throwable e) {
                closed = true;
                Dispatcher.failed(e);
            } finally {
                bringingUp = null;
            }
            return target;
        }
    }
}
