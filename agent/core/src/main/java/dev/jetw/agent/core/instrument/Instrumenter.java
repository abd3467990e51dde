package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.exclusion.AdaptiveExclusion;
import dev.jetw.agent.core.methods.MethodRegistry;
import dev.jetw.agent.core.methods.Selection;
import dev.jetw.agent.core.options.HotMethods;
import dev.jetw.agent.core.writing.Rundown;
import dev.jetw.bootstrap.Dispatcher;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.ClassFileVersion;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.JavaModule;

import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Installs the instrumentation: the direct path ({@link DirectWeavingTransformer}) for class loads at start-up and for
 * loads and the ramp's retransformations at attach, Byte Buddy's {@code AgentBuilder} for what it leaves (and for
 * {@link #install()}); retransformation without class-format changes, so {@link #reset} restores the original bytes at
 * detach. Method ids are assigned when a method is selected ({@link #admit}, the same on both paths).
 */
public final class Instrumenter {

    /**
     * Classes already loaded are retransformed (at attach) and restored (at detach) in batches with a pause
     * between them: each retransformClasses call is one JVM safepoint that stops every application thread,
     * so small batches keep each stop short and the pause bounds the rate (at most ~2,000 classes a second)
     * and lets the application run in between (docs/agent-dist.md).
     */
    static final int RETRANSFORM_BATCH_SIZE = 50;
    static final long RETRANSFORM_PAUSE_MILLIS = 25;
    private static final AgentBuilder.RedefinitionStrategy.BatchAllocator RETRANSFORM_BATCHES =
            AgentBuilder.RedefinitionStrategy.BatchAllocator.ForFixedSize.ofSize(RETRANSFORM_BATCH_SIZE);
    private static final AgentBuilder.RedefinitionStrategy.Listener RETRANSFORM_PAUSES =
            AgentBuilder.RedefinitionStrategy.Listener.Pausing.of(RETRANSFORM_PAUSE_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);

    /** No class loaded before the install is retransformed (premain, when none may be selected). */
    private static final AgentBuilder.RedefinitionStrategy.DiscoveryStrategy NONE_LOADED =
            new AgentBuilder.RedefinitionStrategy.DiscoveryStrategy.Explicit();

    private final Instrumentation inst;
    private final Selection selection;
    private final MethodRegistry registry;
    private final AdaptiveExclusion exclusion;
    /** An earlier trace's adaptive decisions (option hotMethods=), or null. */
    private final HotMethods hotMethods;
    private final Rundown rundown;
    private final boolean verbose;
    private volatile ResettableClassFileTransformer transformer;
    /** premain's direct path for class loads, or null (at attach, or when a class loaded before the agent may be selected). */
    private volatile DirectWeavingTransformer direct;
    /** At attach: the ramp that orders the loaded classes and leaves out the methods running hot (null at start-up). */
    private volatile AttachRamp ramp;
    /**
     * Parsed class files per class loader, kept for this attach: a library's classes share super
     * types and signatures, which Byte Buddy would otherwise read and parse again for every class
     * it transforms. Only types Byte Buddy resolves are kept (the included classes, their super types and
     * the types their signatures name), not every class loaded. Cleared at {@link #reset}, so that no
     * class loader is held after a detach.
     */
    private final ConcurrentMap<ClassLoader, TypePool.CacheProvider> typeCache = new ConcurrentHashMap<>();
    /** The classes given new bytes in this attach (at load or retransformed), which {@link #reset} restores. */
    private final java.util.Set<TransformedClass> transformed = ConcurrentHashMap.newKeySet();
    /** The class file being transformed on each thread, for the trivial-method scan (option trivial=). */
    private final TransformedClassFiles classFiles = new TransformedClassFiles(
            new AgentBuilder.PoolStrategy.WithTypePoolCache.Simple(TypePool.Default.ReaderMode.FAST, typeCache));

    public Instrumenter(Instrumentation inst, Selection selection, MethodRegistry registry, AdaptiveExclusion exclusion,
                 HotMethods hotMethods, Rundown rundown, boolean verbose) {
        this.inst = inst;
        this.selection = selection;
        this.registry = registry;
        this.exclusion = exclusion;
        this.hotMethods = hotMethods;
        this.rundown = rundown;
        this.verbose = verbose;
        // Here, once: an Instrumenter is one start-up or attach, whose installs (the ramp's, then Byte Buddy's at its
        // bring-up) would otherwise each count an attach, and a NaN class retransformed on both paths count twice.
        NanConstantGuard.nextAttach();
    }

    /** Installs the transformer and retransforms the classes already loaded, all at once (at start-up: few are). */
    public void install() {
        install(AgentBuilder.RedefinitionStrategy.DiscoveryStrategy.SinglePass.INSTANCE, RETRANSFORM_BATCHES, RETRANSFORM_PAUSES, false);
    }

    /**
     * At attach, on the ramp's thread: the direct path's transformer takes the class loads from now on and the ramp's
     * retransformations of the loaded classes, in the ramp's order and pace ({@link AttachRamp#instrumentLoaded}); Byte
     * Buddy comes up only for a class the direct path leaves to it (the API class, an older class file, a named
     * module), at the first such class.
     */
    void install(AttachRamp ramp) {
        this.ramp = ramp;
        DirectWeavingTransformer d = new DirectWeavingTransformer(inst, selection, admission, registry, requestRundownDrain, verbose,
                byteBuddyForTheRest, true);
        direct = d;
        d.register();
        rundown.requestDrain();
        ramp.instrumentLoaded(new RampRetransformation(d));
        rundown.requestDrain();
    }

    /** The ramp's calls, woven by the direct path; what it leaves goes to Byte Buddy after each pass. */
    private final class RampRetransformation implements AttachRamp.Retransformation {
        private final DirectWeavingTransformer direct;
        private final SelectableClasses selectable = new SelectableClasses(selection);
        /** The classes of the pass under way the direct path left to Byte Buddy. */
        private final java.util.List<Class<?>> left = new java.util.ArrayList<>();
        /** The error of the last pass's Byte Buddy call, or null. */
        private Throwable passFailure;

        RampRetransformation(DirectWeavingTransformer direct) {
            this.direct = direct;
        }

        @Override
        public java.util.List<Class<?>> loadedClasses() {
            java.util.List<Class<?>> classes = new java.util.ArrayList<>();
            for (Class<?> c : inst.getAllLoadedClasses()) {
                if (!c.isArray() && !c.isPrimitive() && inst.isModifiableClass(c)) {
                    classes.add(c);
                }
            }
            return classes;
        }

        /** What Byte Buddy's matchers accepted: a class that may be selected, and not refused by the NaN guard. */
        @Override
        public boolean accepts(Class<?> type) {
            return selectable.mayBeRetransformed(type) && !NanConstantGuard.refuses(type);
        }

        @Override
        public void retransform(java.util.List<Class<?>> batch) throws Exception {
            java.util.List<Class<?>> woven = new java.util.ArrayList<>(batch.size());
            java.util.List<Class<?>> leftHere = new java.util.ArrayList<>();
            for (Class<?> c : batch) {
                (direct.leavesToByteBuddy(c) ? leftHere : woven).add(c);
            }
            if (!woven.isEmpty()) {
                leftHere.addAll(direct.retransform(woven));
            }
            left.addAll(leftHere); // only once the call succeeded: a failed call's classes are all counted failed
        }

        @Override
        public java.util.List<Class<?>> finishPass() {
            if (left.isEmpty()) {
                return java.util.Collections.emptyList();
            }
            java.util.List<Class<?>> classes = new java.util.ArrayList<>(left);
            left.clear();
            passFailure = null;
            try {
                if (byteBuddyForTheRest.bringUp() == null) {
                    return classes; // a detach began, or Byte Buddy could not come up (counted then)
                }
                inst.retransformClasses(classes.toArray(new Class<?>[0]));
                return java.util.Collections.emptyList();
            } catch (Throwable e) { // as the ramp's own calls (AttachRamp#retransform): InternalError, OutOfMemoryError too
                passFailure = e;
                Dispatcher.failed(e);
                return classes;
            }
        }

        @Override
        public Throwable passFailure() {
            return passFailure;
        }
    }

    /**
     * premain's path ({@link FirstMatchTransformer}): class loads come from the first-match transformer, which hands
     * them to the transformer returned. When no class loaded so far may be selected ({@code retransformLoaded} false:
     * the usual start-up) that is the direct path ({@link DirectWeavingTransformer}, docs/weaving.md), and Byte Buddy
     * comes up only for a class it leaves to it; otherwise Byte Buddy's transformer, which retransforms the classes
     * loaded so far (the first-match transformer turned every other away), and whose own registration then sees only
     * retransformations.
     */
    public java.lang.instrument.ClassFileTransformer installRoutingLoads(boolean retransformLoaded) {
        if (retransformLoaded) {
            return installByteBuddyRoutingLoads(AgentBuilder.RedefinitionStrategy.DiscoveryStrategy.SinglePass.INSTANCE);
        }
        DirectWeavingTransformer d = new DirectWeavingTransformer(inst, selection, admission, registry, requestRundownDrain, verbose,
                byteBuddyForTheRest);
        direct = d;
        d.register();
        rundown.requestDrain();
        return d;
    }

    private ResettableClassFileTransformer installByteBuddyRoutingLoads(AgentBuilder.RedefinitionStrategy.DiscoveryStrategy loaded) {
        install(loaded, RETRANSFORM_BATCHES, RETRANSFORM_PAUSES, true);
        return transformer;
    }

    /** The direct path's call after each class (a class, not a lambda: it is made inside class loading). */
    private final Runnable requestRundownDrain = new Runnable() {
        @Override
        public void run() {
            rundown.requestDrain();
        }
    };

    /**
     * Under the fallback's lock: {@link #reset} began (a detach or stop), so no transformer may come up any more; or the
     * bring-up failed once (counted then; not tried again at every later class).
     */
    private boolean fallbackClosed;

    /**
     * The classes the direct path leaves to Byte Buddy: its transformer comes up at the first of them, on that thread.
     * The bring-up and {@link #reset} take the same lock, so a detach either finds the transformer up (and resets it) or
     * keeps it from ever coming up: an application thread's bring-up outside the agent's own lock must not install a
     * transformer after the detach, which would stay registered with the old session's selection for good.
     */
    final ByteBuddyForTheRest byteBuddyForTheRest = new ByteBuddyForTheRest();

    /** {@link #byteBuddyForTheRest}'s type: the fallback of class loads, and the bring-up the ramp's passes call too. */
    final class ByteBuddyForTheRest implements DirectWeavingTransformer.Fallback {
        private final ModuleAwareCall call = new ModuleAwareCall();

        @Override
        public byte[] transform(ClassLoader loader, String internalName, ProtectionDomain pd, byte[] classFile) throws Exception {
            java.lang.instrument.ClassFileTransformer t = bringUp();
            return t == null ? null : call.transform(t, loader, internalName, pd, classFile);
        }

        /**
         * Byte Buddy's transformer, brought up now if it is not (it retransforms nothing then: it takes the loads handed
         * to it and the retransformations of the classes the direct path does not own); null after a reset began or
         * when the bring-up failed.
         */
        synchronized java.lang.instrument.ClassFileTransformer bringUp() {
            java.lang.instrument.ClassFileTransformer t = transformer;
            if (t == null && direct != null && !fallbackClosed) {
                fallbackClosed = true; // until it is up: a failure is not retried at every later class
                t = installByteBuddyRoutingLoads(NONE_LOADED);
                fallbackClosed = false;
            }
            return t;
        }
    }

    private void install(AgentBuilder.RedefinitionStrategy.DiscoveryStrategy loaded, AgentBuilder.RedefinitionStrategy.BatchAllocator batches,
                         AgentBuilder.RedefinitionStrategy.Listener pacing, boolean loadsRouted) {
        LinkedCallWeaver linkedCalls = new LinkedCallWeaver(registry, classFiles);
        Advice byteCheckedAdvice = Advice.withCustomMapping()
                .bind(MethodId.class, new MethodIdMapping(registry))
                .to(CallAdvice.ByteChecked.class);
        Advice checkpoint = Advice.to(ApiAdvice.Checkpoint.class);
        Advice checkpointAtLevel = Advice.to(ApiAdvice.CheckpointAtLevel.class);
        Advice isActive = Advice.to(ApiAdvice.IsActive.class);

        // Class-load cost (BENCHMARKS.md §7): the advice only wraps declared methods, so no method graph of the
        // super types is built (ForDeclaredMethods); class files are parsed without debug information (FAST)
        // and the parses are cached across the classes of the attach.
        transformer = AgentBuilders.of(new ByteBuddy().with(TypeValidation.DISABLED)
                        .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE))
                .with(classFiles)
                .with(new ClassDescriptions(selection, loadsRouted))
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(batches)
                .with(loaded)
                .with(pacing)
                .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .with(new Listener())
                // Advice in java.* or in named application modules calls the Dispatcher in the boot loader's unnamed module.
                .assureReadEdgeTo(inst, Dispatcher.class)
                .ignore(new AgentBuilder.RawMatcher() {
                    @Override
                    public boolean matches(TypeDescription type, ClassLoader loader, JavaModule module,
                                           Class<?> classBeingRedefined, ProtectionDomain pd) {
                        if (type.getName().equals(Selection.API_CLASS)) {
                            return false;
                        }
                        if (classBeingRedefined != null && isDirectlyWoven(loader, type.getName())) {
                            return true; // the direct path's class: its transformer weaves it again
                        }
                        return !selection.matchesType(type, loader)
                                || classBeingRedefined != null && NanConstantGuard.refuses(classBeingRedefined);
                    }
                })
                .type(named(Selection.API_CLASS))
                .transform((builder, type, loader, module, pd) -> builder
                        .visit(checkpoint.on(named("checkpoint").and(isStatic()).and(takesArguments(String.class))))
                        .visit(checkpointAtLevel.on(named("checkpoint").and(isStatic()).and(takesArguments(String.class, int.class))))
                        .visit(isActive.on(named("isActive").and(isStatic()).and(takesArguments(0)))))
                .type(new AgentBuilder.RawMatcher() {
                    @Override
                    public boolean matches(TypeDescription type, ClassLoader loader, JavaModule module,
                                           Class<?> classBeingRedefined, ProtectionDomain pd) {
                        return !type.getName().equals(Selection.API_CLASS);
                    }
                })
                .transform((builder, type, loader, module, pd) -> builder.visit(
                        canLink(type) ? linkedCalls.on(selector(type)) : byteCheckedAdvice.on(selector(type))))
                .installOn(inst);
        rundown.requestDrain();
    }

    /**
     * Restores every class this transformer changed to its original bytes; true when all were reset. Only those: Byte
     * Buddy's own reset would retransform every loaded class its matcher accepts, and so throw away the compiled code
     * of classes it never changed (the hot classes {@code attachHot=skip} leaves alone, those a detach came before).
     */
    public boolean reset() {
        ResettableClassFileTransformer t;
        synchronized (byteBuddyForTheRest) { // waits for a bring-up in progress, and keeps any later one from starting
            fallbackClosed = true;
            t = transformer;
            transformer = null;
        }
        DirectWeavingTransformer d = direct;
        boolean all = true;
        try {
            all = t == null || t.reset(inst, AgentBuilder.RedefinitionStrategy.RETRANSFORMATION, transformedClasses(),
                    RETRANSFORM_BATCHES, RETRANSFORM_PAUSES);
        } catch (Throwable e) { // any JVM error: the direct path's classes below are restored all the same
            Dispatcher.failed(e);
            all = false;
        } finally {
            typeCache.clear();
            transformed.clear();
            if (d != null) {
                direct = null;
                all &= d.reset();
            }
        }
        return all;
    }

    private boolean isDirectlyWoven(ClassLoader loader, String className) {
        DirectWeavingTransformer d = direct;
        return d != null && d.owns(loader, className);
    }

    /** The loaded classes this transformer changed, as one pass. */
    private AgentBuilder.RedefinitionStrategy.DiscoveryStrategy transformedClasses() {
        return instrumentation -> {
            java.util.List<Class<?>> classes = new java.util.ArrayList<>();
            for (Class<?> c : instrumentation.getAllLoadedClasses()) {
                if (transformed.contains(new TransformedClass(c.getClassLoader(), c.getName()))) {
                    classes.add(c);
                }
            }
            return java.util.Collections.<Iterable<Class<?>>>singletonList(classes);
        };
    }

    /** Selects the methods of {@code type}, registering each (id, level, pending rundown) as it is selected. */
    private ElementMatcher<MethodDescription> selector(final TypeDescription type) {
        final DirectWeaving.TrivialScan trivial = new DirectWeaving.TrivialScan() {
            @Override
            public java.util.Set<String> trivialMethods() {
                return classFiles.trivialMethods(type.getName());
            }
        };
        return new ElementMatcher<MethodDescription>() {
            @Override
            public boolean matches(MethodDescription method) {
                long choice = selection.choose(type, method);
                return choice >= 0 && admission.idToWeave(type.getName(), method.getInternalName(), method.getDescriptor(), choice, trivial) != 0;
            }
        };
    }

    /** A chosen method's admission, the same on both paths (Byte Buddy's selector, {@link DirectWeaving}). */
    private final DirectWeaving.Admission admission = new DirectWeaving.Admission() {
        @Override
        public int idToWeave(String className, String methodName, String descriptor, long choice, DirectWeaving.TrivialScan trivial) {
            if (selection.skipsTrivial(choice) && trivial.trivialMethods().contains(methodName + descriptor)) {
                registry.leaveOutTrivial(className, methodName, descriptor, Selection.groupOf(choice));
                return 0;
            }
            int id = admit(registry, exclusion, className, methodName, descriptor, choice, selection.thresholdNanos(choice), knownDecisions);
            return id != 0 && !registry.isUninstrumented(id) ? id : 0;
        }
    };

    /** Where a decision made before the method's first call comes from: an earlier trace (hotMethods=) or the attach ramp. */
    interface KnownDecisions {
        HotMethods.Decision of(String className, String methodName, String descriptor);
    }

    /** An earlier trace's decision first, else the attach ramp's (a class, not a lambda: it runs inside class loading). */
    private final KnownDecisions knownDecisions = new KnownDecisions() {
        @Override
        public HotMethods.Decision of(String className, String methodName, String descriptor) {
            HotMethods.Decision known = hotMethods == null ? null : hotMethods.of(className, methodName, descriptor);
            AttachRamp r = ramp;
            return known == null && r != null ? r.decisionFor(className, methodName, descriptor) : known;
        }
    };

    /**
     * Registers a selected method and applies its known decision before the rundown may name it: the rundown writes
     * the decision (MethodExclusion) right after the method's DC_START, so a rundown thread draining in between (it
     * runs while the other classes of a pass are transformed) named the method without saying why it is absent.
     *
     * @return the method's id, 0 when its rule's share leaves it out
     */
    static int admit(MethodRegistry registry, AdaptiveExclusion exclusion, String className, String methodName, String descriptor,
                     long choice, long thresholdNanos, KnownDecisions known) {
        int id = registry.registerUnnamed(className, methodName, descriptor, Selection.levelOf(choice), thresholdNanos, Selection.groupOf(choice));
        if (id == 0) {
            return 0;
        }
        HotMethods.Decision decision = known.of(className, methodName, descriptor);
        if (decision != null && exclusion.startKnown(id, decision)) {
            registry.uninstrument(id); // named and budgeted like any method, but never given advice
        }
        registry.queueForRundown(id);
        return id;
    }

    /** Class files of Java 7 and later may hold invokedynamic; Byte Buddy reads the version from the class file. */
    private static boolean canLink(TypeDescription type) {
        ClassFileVersion version = type.getClassFileVersion();
        return version != null && version.isAtLeast(ClassFileVersion.JAVA_V7);
    }

    private static int idOf(MethodRegistry registry, TypeDescription type, MethodDescription method) {
        int id = registry.idOf(type.getName(), method.getInternalName(), method.getDescriptor());
        if (id == 0) {
            throw new IllegalStateException("no method id for " + type.getName() + "." + method.getInternalName());
        }
        return id;
    }

    /** Binds the {@link MethodId} parameter to the registered id of the method being instrumented. */
    private static final class MethodIdMapping implements Advice.OffsetMapping {
        private final MethodRegistry registry;

        MethodIdMapping(MethodRegistry registry) {
            this.registry = registry;
        }

        @Override
        public Target resolve(TypeDescription instrumentedType, MethodDescription instrumentedMethod, Assigner assigner,
                              Advice.ArgumentHandler argumentHandler, Sort sort) {
            return Target.ForStackManipulation.of(idOf(registry, instrumentedType, instrumentedMethod));
        }
    }

    /** Writes rundown for newly instrumented methods and counts transformation errors. */
    private final class Listener extends AgentBuilder.Listener.Adapter {

        @Override
        public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded,
                                     DynamicType dynamicType) {
            transformed.add(new TransformedClass(loader, type.getName()));
            rundown.requestDrain();
            if (verbose) {
                System.err.println("jetw: instrumented " + type.getName());
            }
        }

        @Override
        public void onComplete(String typeName, ClassLoader loader, JavaModule module, boolean loaded) {
            classFiles.done();
        }

        @Override
        public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable error) {
            Dispatcher.failed(error);
            if (verbose) {
                System.err.println("jetw: cannot instrument " + typeName + ": " + error);
            }
        }
    }
}
