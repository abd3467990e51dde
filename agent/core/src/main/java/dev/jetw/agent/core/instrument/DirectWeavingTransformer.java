package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.methods.MethodRegistry;
import dev.jetw.agent.core.methods.Selection;
import dev.jetw.bootstrap.Dispatcher;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The direct path's transformer: premain's of the classes that load (docs/weaving.md, "The direct path"): the loads
 * {@link FirstMatchTransformer} hands over are woven by {@link DirectWeaving} when they are ordinary class files of
 * Java 7 or later outside a named module of the boot layer; every other one ({@code dev.jetw.api.Jetw}'s API advice,
 * older class files, a class of a named module, which needs the read edge Byte Buddy adds) goes to Byte Buddy's
 * transformer, brought up only then ({@link Fallback}). A class this transformer wove is its own for good: its later
 * retransformations (the adaptive remover's) come here and are woven again from the original bytes the JVM hands over,
 * and Byte Buddy's transformer leaves them alone ({@link #owns}); {@link #reset} restores them.
 *
 * <p>At attach ({@code takesLoads}) it takes the class loads from the JVM, tested as the first-match transformer tests
 * them, and the attach ramp's retransformations ({@link #retransform}: the classes of the call are claimed, woven here,
 * and its own from then on).
 *
 * <p>What Byte Buddy's listener did is done here: the class joins the set {@link #reset} restores, the rundown is
 * asked to drain (it names the methods just registered), a failure is counted ({@link Dispatcher#failed}) and the
 * class keeps its bytes. Nothing escapes into the class load.
 */
final class DirectWeavingTransformer implements ClassFileTransformer {

    /** Where the classes the direct path cannot weave go: Byte Buddy's transformer, brought up at the first such class. */
    interface Fallback {
        byte[] transform(ClassLoader loader, String internalName, ProtectionDomain pd, byte[] classFile) throws Exception;
    }

    private final Instrumentation inst;
    private final Selection selection;
    private final DirectWeaving.Admission admission;
    private final MethodRegistry registry;
    /** Asks the rundown to drain: it names the methods just registered (Rundown.requestDrain). */
    private final Runnable requestRundownDrain;
    private final boolean verbose;
    private final Fallback fallback;
    private final SelectableClasses selectable;
    private final ModuleAwareCall modules = new ModuleAwareCall();
    /** The classes woven here, restored by {@link #reset}. */
    private final Set<TransformedClass> woven = ConcurrentHashMap.newKeySet();
    /** The classes of the attach ramp's retransformation call under way ({@link #retransform}): woven here too. */
    private final Set<TransformedClass> claimed = ConcurrentHashMap.newKeySet();
    /** Classes of that call whose class file predates Java 7: left as they are, for Byte Buddy's path. */
    private final List<Class<?>> olderClassFiles = java.util.Collections.synchronizedList(new ArrayList<Class<?>>());
    /**
     * True at attach: class loads come from the JVM, not handed over by a {@link FirstMatchTransformer}; this transformer
     * then tests them as that one would and hands them to itself.
     */
    private final boolean takesLoads;
    private volatile boolean closed;

    DirectWeavingTransformer(Instrumentation inst, Selection selection, DirectWeaving.Admission admission, MethodRegistry registry,
                             Runnable requestRundownDrain, boolean verbose, Fallback fallback) {
        this(inst, selection, admission, registry, requestRundownDrain, verbose, fallback, false);
    }

    /** {@code takesLoads}: at attach, where no first-match transformer routes the loads (see {@link #takesLoads}). */
    DirectWeavingTransformer(Instrumentation inst, Selection selection, DirectWeaving.Admission admission, MethodRegistry registry,
                             Runnable requestRundownDrain, boolean verbose, Fallback fallback, boolean takesLoads) {
        this.takesLoads = takesLoads;
        this.inst = inst;
        this.selection = selection;
        this.admission = admission;
        this.registry = registry;
        this.requestRundownDrain = requestRundownDrain;
        this.verbose = verbose;
        this.fallback = fallback;
        this.selectable = new SelectableClasses(selection);
    }

    /**
     * Registers it for the retransformations of the classes it weaves (at start-up loads come from the first-match
     * transformer; at attach from the JVM through this registration).
     */
    void register() {
        inst.addTransformer(this, true);
    }

    /**
     * True for a class woven here, or being retransformed by {@link #retransform}: Byte Buddy's transformer leaves its
     * retransformations alone.
     */
    boolean owns(ClassLoader loader, String className) {
        TransformedClass c = new TransformedClass(loader, className);
        return !woven.isEmpty() && woven.contains(c) || !claimed.isEmpty() && claimed.contains(c);
    }

    /**
     * Whether a loaded class is left to Byte Buddy's path whatever its class file holds: {@code dev.jetw.api.Jetw} (the
     * API advice) or a class of a named module of the boot layer (the read edge). Its class file's version is told
     * only when the JVM hands it over ({@link #retransform}).
     */
    boolean leavesToByteBuddy(Class<?> type) {
        String name = type.getName();
        return name.equals(Selection.API_CLASS) || modules.isInNamedModule(type.getClassLoader(), name.replace('.', '/'));
    }

    /**
     * The attach ramp's retransformation of loaded classes ({@link #leavesToByteBuddy} none of them), woven here, in one
     * call: all or nothing (the JVM's error is thrown). Returns the classes of the call whose class file predates Java 7:
     * the call left them as they were (the JVM still redefined them), for Byte Buddy's path to retransform.
     */
    List<Class<?>> retransform(List<Class<?>> batch) throws java.lang.instrument.UnmodifiableClassException {
        olderClassFiles.clear();
        for (Class<?> c : batch) {
            claimed.add(new TransformedClass(c.getClassLoader(), c.getName()));
        }
        try {
            inst.retransformClasses(batch.toArray(new Class<?>[0]));
            return new ArrayList<>(olderClassFiles);
        } finally {
            claimed.clear();
            olderClassFiles.clear();
        }
    }

    @Override
    public byte[] transform(ClassLoader loader, String internalName, Class<?> classBeingRedefined, ProtectionDomain pd,
                            byte[] classFile) {
        if (closed || internalName == null) {
            return null;
        }
        try {
            if (classBeingRedefined != null) {
                return retransformed(loader, classBeingRedefined, classFile);
            }
            if (takesLoads && !FirstMatchTransformer.isForwarding()) {
                return fromTheJvm(loader, internalName, pd, classFile);
            }
            if (!FirstMatchTransformer.isHandingOver(internalName)) {
                // A load the first-match transformer did not hand over: it turned the class away, or the class loads
                // during another's hand-over (as the weaving's own classes may), which is left alone.
                return null;
            }
            String className = internalName.replace('/', '.');
            boolean api = className.equals(Selection.API_CLASS);
            if (!api && selection.rejectsByName(className, loader)) {
                return null; // never the agent's own classes, whatever hands them over
            }
            if (api || DirectWeaving.majorVersion(classFile) < DirectWeaving.JAVA_7 || modules.isInNamedModule(loader, internalName)) {
                return fallback.transform(loader, internalName, pd, classFile);
            }
            return weave(loader, className, classFile);
        } catch (Throwable e) {
            failed(internalName, e);
            return null;
        }
    }

    /** A retransformation: of a class woven here (the remover's), or of one the ramp's call claimed. */
    private byte[] retransformed(ClassLoader loader, Class<?> type, byte[] classFile) {
        String className = type.getName();
        if (!owns(loader, className)) {
            return null;
        }
        if (!claimed.isEmpty() && DirectWeaving.majorVersion(classFile) < DirectWeaving.JAVA_7
                && claimed.contains(new TransformedClass(loader, className))) {
            olderClassFiles.add(type);
            return null;
        }
        return weave(loader, className, classFile);
    }

    /**
     * At attach, a class load from the JVM: one the options may select is handed over to this transformer as the
     * first-match transformer hands it at start-up (a load during that hand-over is left alone, as there).
     */
    private byte[] fromTheJvm(ClassLoader loader, String internalName, ProtectionDomain pd, byte[] classFile) {
        if (!selectable.mayBeSelected(internalName, loader, classFile)) {
            return null;
        }
        FirstMatchTransformer.beginHandOver(internalName);
        try {
            return transform(loader, internalName, null, pd, classFile);
        } finally {
            FirstMatchTransformer.endHandOver();
        }
    }

    private byte[] weave(ClassLoader loader, String className, byte[] classFile) {
        try {
            byte[] result = DirectWeaving.weave(classFile, selectable.holdsAnyAnnotation(classFile), selection, admission, registry);
            if (result != null) {
                woven.add(new TransformedClass(loader, className));
                if (verbose) {
                    System.err.println("jetw: instrumented " + className);
                }
            }
            return result;
        } catch (RuntimeException | LinkageError e) {
            failed(className, e);
            return null;
        } finally {
            requestRundownDrain.run(); // methods may have been registered, woven or not
        }
    }

    private void failed(String className, Throwable e) {
        Dispatcher.failed(e);
        if (verbose) {
            System.err.println("jetw: cannot instrument " + className + ": " + e);
        }
    }

    /**
     * Restores the classes woven here to their original bytes: this transformer stops weaving, and retransforming them
     * then gives each its original class file (no other transformer changes them). In batches with pauses, as Byte
     * Buddy's reset. True when all were restored.
     */
    boolean reset() {
        return reset(Instrumenter.RETRANSFORM_BATCH_SIZE);
    }

    /** {@link #reset()} in batches of {@code batchSize} (tests: several batches of few classes). */
    boolean reset(int batchSize) {
        closed = true;
        boolean all = true;
        try {
            List<Class<?>> classes = new ArrayList<>();
            if (!woven.isEmpty()) {
                for (Class<?> c : inst.getAllLoadedClasses()) {
                    if (woven.contains(new TransformedClass(c.getClassLoader(), c.getName()))) {
                        classes.add(c);
                    }
                }
            }
            for (int from = 0; from < classes.size(); from += batchSize) {
                if (from > 0) {
                    Thread.sleep(Instrumenter.RETRANSFORM_PAUSE_MILLIS);
                }
                List<Class<?>> batch = classes.subList(from, Math.min(classes.size(), from + batchSize));
                try {
                    inst.retransformClasses(batch.toArray(new Class<?>[0]));
                } catch (Throwable e) {
                    // Any error (InternalError, OutOfMemoryError from JVMTI too): the batch stays woven, counted, and the
                    // next batches are still restored; ending here would leave them woven for good (the set is cleared).
                    Dispatcher.failed(e);
                    if (verbose) {
                        System.err.println("jetw: cannot restore " + batch.size() + " classes from " + batch.get(0).getName() + ": " + e);
                    }
                    all = false;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            all = false;
        } finally {
            inst.removeTransformer(this);
            woven.clear();
        }
        return all;
    }
}
