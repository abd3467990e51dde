package dev.jetw.agent.core.handoff;

import dev.jetw.bootstrap.Dispatcher;
import dev.jetw.bootstrap.Handoff;
import dev.jetw.bootstrap.LinkedCallable;
import dev.jetw.bootstrap.LinkedRunnable;
import dev.jetw.bootstrap.LinkedTask;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Puts the hand-off calls into the JDK's hand-off points (docs/cross-thread.md, {@link HandoffPoint}): a transformer
 * of its own, apart from the method instrumentation, that weaves a fixed list of the boot loader's JDK classes with
 * {@link HandoffWeaver} (ASM only: Byte Buddy's {@code AgentBuilder} and {@code Advice} are not brought up for it,
 * which cost about 0.7 CPU-s at the first match, BENCHMARKS.md §19). It changes no class format (calls only, no field
 * or method added), so the classes already loaded — all of them, at attach and usually at start-up too — are
 * retransformed, those that load later are woven as they load, and {@link #reset} puts their original bytes back at
 * detach.
 *
 * <p>The woven calls go from java.base to the boot loader's unnamed module, which java.base does not read: the read
 * edge is added before the first class is woven (what Byte Buddy's {@code assureReadEdgeTo} did). The boot-class-path
 * classes the calls reach are loaded here too, so that the first hand-off after attach does not load a class from
 * inside an executor's lock.
 */
public final class HandoffInstrumenter implements ClassFileTransformer {

    private static final Set<String> CLASSES = HandoffPoint.classNames();

    private final Instrumentation inst;
    private final boolean verbose;
    /** The classes woven (dotted names; all the boot loader's), restored by {@link #reset}. */
    private final Set<String> woven = Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());
    private volatile boolean installed;
    private volatile boolean closed;

    public HandoffInstrumenter(Instrumentation inst, boolean verbose) {
        this.inst = inst;
        this.verbose = verbose;
    }

    /** Weaves the hand-off points' classes loaded now, and those that load later as they load. */
    public void install() {
        preload();
        try {
            addReadEdge(inst, moduleOf(java.util.concurrent.ThreadPoolExecutor.class), Handoff.class);
        } catch (RuntimeException e) {
            failed("java.base", e); // the woven calls would throw IllegalAccessError: no class is woven, nothing is linked
            return;
        }
        installed = true;
        inst.addTransformer(this, true);
        List<Class<?>> loaded = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (c.getClassLoader() == null && CLASSES.contains(c.getName())) {
                loaded.add(c);
            }
        }
        for (Class<?> c : loaded) {
            // One at a time: a class that cannot be retransformed keeps its bytes and the others are woven.
            try {
                inst.retransformClasses(c);
            } catch (Exception | LinkageError e) {
                failed(c.getName(), e);
            }
        }
    }

    @Override
    public byte[] transform(ClassLoader loader, String internalName, Class<?> classBeingRedefined, ProtectionDomain pd,
                            byte[] classFile) {
        if (closed || loader != null || internalName == null || !internalName.startsWith("java/util/concurrent/")) {
            return null;
        }
        String className = internalName.replace('/', '.');
        if (!CLASSES.contains(className)) {
            return null;
        }
        try {
            byte[] result = HandoffWeaver.weave(classFile);
            if (result != null && woven.add(className) && verbose) {
                System.err.println("jetw: hand-off advice in " + className);
            }
            return result;
        } catch (Throwable e) {
            failed(className, e);
            return null;
        }
    }

    /**
     * Restores the JDK classes' original bytes: this transformer stops weaving, and retransforming them then gives
     * each its original class file. True when all were reset.
     */
    public boolean reset() {
        if (!installed) {
            return true;
        }
        installed = false;
        closed = true;
        inst.removeTransformer(this);
        boolean all = true;
        if (woven.isEmpty()) {
            return true;
        }
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (c.getClassLoader() == null && woven.contains(c.getName())) {
                try {
                    inst.retransformClasses(c);
                } catch (Exception | LinkageError e) {
                    Dispatcher.failed(e);
                    all = false;
                }
            }
        }
        woven.clear();
        return all;
    }

    /** How many JDK classes carry the hand-off calls (status). */
    public int transformedClasses() {
        return woven.size();
    }

    private void failed(String className, Throwable e) {
        Dispatcher.failed(e);
        if (verbose) {
            System.err.println("jetw: cannot put hand-off advice in " + className + ": " + e);
        }
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

    /** The module of {@code c}, or null before Java 9. */
    private static Object moduleOf(Class<?> c) {
        try {
            return Class.class.getMethod("getModule").invoke(c);
        } catch (NoSuchMethodException e) {
            return null; // Java 8: no modules, every class reads every other
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot find the module of " + c.getName(), e);
        }
    }

    /**
     * Makes {@code module} read {@code target}'s module (Instrumentation.redefineModule, by reflection at bytecode
     * level 8); nothing on Java 8 or when it reads it already.
     */
    static void addReadEdge(Instrumentation inst, Object module, Class<?> target) {
        Object targetModule = moduleOf(target);
        if (module == null || targetModule == null) {
            return;
        }
        try {
            Class<?> moduleClass = Class.forName("java.lang.Module");
            if ((Boolean) moduleClass.getMethod("canRead", moduleClass).invoke(module, targetModule)) {
                return;
            }
            Method redefine = Instrumentation.class.getMethod("redefineModule", moduleClass, Set.class, Map.class, Map.class,
                    Set.class, Map.class);
            redefine.invoke(inst, module, Collections.singleton(targetModule), Collections.emptyMap(), Collections.emptyMap(),
                    Collections.emptySet(), Collections.emptyMap());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot let " + module + " read " + targetModule, e);
        }
    }
}
