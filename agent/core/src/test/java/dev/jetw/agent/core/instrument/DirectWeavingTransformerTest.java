package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.methods.MethodRegistry;
import dev.jetw.bootstrap.Dispatcher;
import dev.jetw.shapes.Shapes;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.utility.OpenedClassReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.instrument.ClassDefinition;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The direct path's duties around the weaving (docs/weaving.md, "The direct path"): a load the first-match transformer
 * hands over is woven and the class is the direct path's own; its retransformation (the adaptive remover's) is woven
 * again from the original bytes, without the methods taken out meanwhile; the reset at detach gives it its original
 * bytes and unregisters the transformer; what it cannot weave goes to Byte Buddy's fallback; a load it was not handed,
 * or a class file it cannot read, is left as it is (the failure counted). The JVM is a stub {@link Instrumentation}
 * that runs the registered transformers over a class's original bytes as a retransformation does.
 */
class DirectWeavingTransformerTest {

    private static final String PLAIN = Shapes.Plain.class.getName().replace('.', '/');
    private static final ClassLoader LOADER = Shapes.Plain.class.getClassLoader();

    private final StubInstrumentation jvm = new StubInstrumentation();
    private final DirectWeavingTest.Direct rules = new DirectWeavingTest.Direct("include=dev.jetw.shapes.**,trivial=trace");
    private final MethodRegistry registry = rules.registry;
    private final List<String> fallbackGot = new ArrayList<>();
    private int drains;
    /** Run inside the fallback, that is during a hand-over: what a nested class load would meet. */
    private java.util.function.Supplier<byte[]> duringHandOver = () -> null;
    private final List<byte[]> nestedResults = new ArrayList<>();
    /** As Instrumenter's admission: a method taken out (uninstrumented) is registered but not woven. */
    private final DirectWeaving.Admission admission = (className, methodName, descriptor, choice, trivial) -> {
        int id = registry.register(className, methodName, descriptor, 4, -1L, 0);
        return id != 0 && !registry.isUninstrumented(id) ? id : 0;
    };
    private final DirectWeavingTransformer direct = new DirectWeavingTransformer(jvm, rules.selection, admission, registry,
            () -> drains++, false, (loader, name, pd, classFile) -> {
                fallbackGot.add(name);
                nestedResults.add(duringHandOver.get());
                return new byte[] {42};
            });
    /** The first-match transformer that hands loads over (its bring-up returns the direct path). */
    private final FirstMatchTransformer firstMatch = new FirstMatchTransformer(jvm, rules.selection, retransformLoaded -> direct);

    DirectWeavingTransformerTest() {
        direct.register();
    }

    @Test
    void aLoadHandedOverIsWovenAndItsRetransformationLeavesOutTheMethodsTakenOut() throws IOException {
        byte[] original = DirectWeavingTest.classFile(Shapes.Plain.class);
        byte[] woven = firstMatch.transform(LOADER, PLAIN, null, null, original);

        assertTrue(wovenMethods(woven).contains("sum"), "woven at load: " + wovenMethods(woven));
        assertTrue(direct.owns(LOADER, Shapes.Plain.class.getName()));
        assertTrue(drains > 0, "the rundown is asked to name the methods");

        registry.uninstrument(registry.idOf(Shapes.Plain.class.getName(), "sum", "([IDJ)J")); // the remover's decision
        jvm.retransformClasses(Shapes.Plain.class);

        Set<String> again = wovenMethods(jvm.redefined.get(Shapes.Plain.class));
        assertFalse(again.contains("sum"), "taken out at the retransformation: " + again);
        Set<String> expected = new TreeSet<>(wovenMethods(woven));
        expected.remove("sum");
        assertEquals(expected, again, "the others keep their advice");
    }

    @Test
    void theResetGivesTheOriginalBytesBackAndUnregisters() throws IOException {
        byte[] original = DirectWeavingTest.classFile(Shapes.Plain.class);
        firstMatch.transform(LOADER, PLAIN, null, null, original);

        assertTrue(direct.reset());

        assertArrayEquals(original, jvm.redefined.get(Shapes.Plain.class), "retransformed with the original bytes");
        assertFalse(jvm.transformers.contains(direct), "unregistered");
        assertFalse(direct.owns(LOADER, Shapes.Plain.class.getName()));
        assertNull(direct.transform(LOADER, PLAIN, null, null, original), "no later load is woven");
    }

    @Test
    void whatTheDirectPathCannotWeaveGoesToByteBuddy() throws IOException {
        byte[] older = DirectWeavingTest.classFile(Shapes.Plain.class);
        older[7] = 50; // a Java 6 class file: no invokedynamic
        assertArrayEquals(new byte[] {42}, firstMatch.transform(LOADER, PLAIN, null, null, older));
        assertArrayEquals(new byte[] {42}, firstMatch.transform(LOADER, "dev/jetw/api/Jetw", null, null, DirectWeavingTest.classFile(Shapes.Plain.class)));

        assertEquals(List.of(PLAIN, "dev/jetw/api/Jetw"), fallbackGot);
        assertEquals(0, registry.idCount(), "nothing registered by the direct path");
        assertFalse(direct.owns(LOADER, Shapes.Plain.class.getName()));
    }

    /**
     * The JVM gives a class loaded during another's hand-over (the weaving's or Byte Buddy's own classes, loaded as they
     * work) to every registered transformer, the direct path included, while the first-match transformer's hand-over
     * flag is set: it is not the class handed over, and is left alone.
     */
    @Test
    void aClassLoadedDuringAnothersHandOverIsLeftAlone() throws IOException {
        byte[] plain = DirectWeavingTest.classFile(Shapes.Plain.class);
        duringHandOver = () -> direct.transform(LOADER, PLAIN, null, null, plain);

        firstMatch.transform(LOADER, "dev/jetw/api/Jetw", null, null, plain); // handed over, then to the fallback

        assertEquals(1, nestedResults.size());
        assertNull(nestedResults.get(0), "the nested load is not woven");
        assertEquals(0, registry.idCount());
        assertFalse(direct.owns(LOADER, Shapes.Plain.class.getName()));
    }

    @Test
    void aLoadNotHandedOverIsLeftAlone() throws IOException {
        assertNull(direct.transform(LOADER, PLAIN, null, null, DirectWeavingTest.classFile(Shapes.Plain.class)));
        assertEquals(0, registry.idCount());
        assertEquals(List.of(), fallbackGot);
    }

    @Test
    void aClassFileItCannotReadIsCountedAndKeepsItsBytes() {
        long before = Dispatcher.internalErrors();
        byte[] truncated = {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0, 0, 52, 0, 9};

        assertNull(firstMatch.transform(LOADER, "dev/jetw/shapes/Truncated", null, null, truncated));
        assertEquals(before + 1, Dispatcher.internalErrors());
        assertFalse(direct.owns(LOADER, "dev.jetw.shapes.Truncated"));
    }

    /** At attach: the direct path registered to take loads from the JVM and the ramp's retransformations. */
    private DirectWeavingTransformer atAttach(StubInstrumentation attachedJvm) {
        DirectWeavingTransformer d = new DirectWeavingTransformer(attachedJvm, rules.selection, admission, registry, () -> drains++, false,
                (loader, name, pd, classFile) -> {
                    fallbackGot.add(name);
                    return new byte[] {42};
                }, true);
        d.register();
        return d;
    }

    @Test
    void atAttachTheRampsRetransformationIsWovenAndTheResetRestoresIt() throws Exception {
        StubInstrumentation attachedJvm = new StubInstrumentation();
        DirectWeavingTransformer d = atAttach(attachedJvm);
        byte[] original = DirectWeavingTest.classFile(Shapes.Plain.class);

        assertEquals(List.of(), d.retransform(List.of(Shapes.Plain.class)), "nothing left to Byte Buddy");

        assertTrue(wovenMethods(attachedJvm.redefined.get(Shapes.Plain.class)).contains("sum"), "woven by the ramp's call");
        assertTrue(d.owns(LOADER, Shapes.Plain.class.getName()), "restored at detach");
        assertTrue(d.reset());
        assertArrayEquals(original, attachedJvm.redefined.get(Shapes.Plain.class), "the reset gives the original bytes back");
    }

    @Test
    void anErrorRestoringOneBatchLeavesItCountedAndTheOtherBatchesAreStillRestored() throws Exception {
        StubInstrumentation attachedJvm = new StubInstrumentation() {
            boolean restoring;

            @Override
            public Class<?>[] getAllLoadedClasses() {
                restoring = true;
                return new Class<?>[] {Shapes.Plain.class, Shapes.TracedClass.class};
            }

            @Override
            public void retransformClasses(Class<?>... classes) {
                if (restoring && classes[0] == Shapes.Plain.class) {
                    throw new InternalError("Merged constant pool overflow"); // a JVMTI error the instrument layer does not map
                }
                super.retransformClasses(classes);
            }
        };
        DirectWeavingTransformer d = atAttach(attachedJvm);
        d.retransform(List.of(Shapes.Plain.class, Shapes.TracedClass.class));
        assertTrue(wovenMethods(attachedJvm.redefined.get(Shapes.TracedClass.class)).size() > 0, "woven by the ramp's call");
        long errorsBefore = Dispatcher.internalErrors();

        assertFalse(d.reset(1), "not all restored");

        assertArrayEquals(DirectWeavingTest.classFile(Shapes.TracedClass.class), attachedJvm.redefined.get(Shapes.TracedClass.class),
                "the batch after the failed one is restored");
        assertTrue(wovenMethods(attachedJvm.redefined.get(Shapes.Plain.class)).contains("sum"), "the failed batch keeps its bytes");
        assertTrue(Dispatcher.internalErrors() > errorsBefore, "the error is counted");
        assertFalse(attachedJvm.transformers.contains(d), "unregistered all the same");
    }

    @Test
    void atAttachAnOlderClassFileIsLeftForByteBuddyAndARetransformationNotClaimedIsLeftAlone() throws Exception {
        StubInstrumentation attachedJvm = new StubInstrumentation();
        DirectWeavingTransformer d = atAttach(attachedJvm);
        byte[] older = DirectWeavingTest.classFile(Shapes.Plain.class);
        older[7] = 50; // a Java 6 class file
        attachedJvm.classFiles.put(Shapes.Plain.class, older);

        assertEquals(List.of(Shapes.Plain.class), d.retransform(List.of(Shapes.Plain.class)));
        assertArrayEquals(older, attachedJvm.redefined.get(Shapes.Plain.class), "left as it was");
        assertFalse(d.owns(LOADER, Shapes.Plain.class.getName()), "Byte Buddy's transformer takes its next retransformation");

        attachedJvm.classFiles.clear();
        attachedJvm.retransformClasses(Shapes.Plain.class); // another agent's, or Byte Buddy's for the class left to it
        assertArrayEquals(DirectWeavingTest.classFile(Shapes.Plain.class), attachedJvm.redefined.get(Shapes.Plain.class), "not claimed: not woven");
    }

    @Test
    void atAttachALoadFromTheJvmIsWovenWithoutAHandOverAndTheApiClassGoesToByteBuddy() throws IOException {
        DirectWeavingTransformer d = atAttach(new StubInstrumentation());
        byte[] plain = DirectWeavingTest.classFile(Shapes.Plain.class);

        assertTrue(wovenMethods(d.transform(LOADER, PLAIN, null, null, plain)).contains("sum"));
        assertTrue(d.owns(LOADER, Shapes.Plain.class.getName()));
        assertNull(d.transform(LOADER, "java/lang/Thing", null, null, plain), "a class the options reject is left alone");
        assertArrayEquals(new byte[] {42}, d.transform(LOADER, "dev/jetw/api/Jetw", null, null, plain));
        assertEquals(List.of("dev/jetw/api/Jetw"), fallbackGot);
    }

    /** The methods of a class file that carry the woven entry (an invokedynamic bootstrapped by MethodEntries.link). */
    static Set<String> wovenMethods(byte[] classFile) {
        Set<String> woven = new TreeSet<>();
        OpenedClassReader.of(classFile).accept(new ClassVisitor(OpenedClassReader.ASM_API) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                return new MethodVisitor(OpenedClassReader.ASM_API) {
                    @Override
                    public void visitInvokeDynamicInsn(String n, String d, Handle bootstrap, Object... arguments) {
                        if (bootstrap.equals(LinkedCallVisitor.LINK)) {
                            woven.add(name);
                        }
                    }
                };
            }
        }, ClassReader.SKIP_FRAMES);
        return woven;
    }

    /** The JVM's side: registered transformers, and retransformation as a chain over the class's original bytes. */
    static class StubInstrumentation implements Instrumentation {
        final List<ClassFileTransformer> transformers = new ArrayList<>();
        /** What each class was last given by a retransformation. */
        final Map<Class<?>, byte[]> redefined = new HashMap<>();
        /** A class's original bytes when not its class file on the class path (e.g. made older). */
        final Map<Class<?>, byte[]> classFiles = new HashMap<>();

        @Override
        public void addTransformer(ClassFileTransformer transformer, boolean canRetransform) {
            transformers.add(transformer);
        }

        @Override
        public void addTransformer(ClassFileTransformer transformer) {
            transformers.add(transformer);
        }

        @Override
        public boolean removeTransformer(ClassFileTransformer transformer) {
            return transformers.remove(transformer);
        }

        @Override
        public boolean isRetransformClassesSupported() {
            return true;
        }

        @Override
        public void retransformClasses(Class<?>... classes) {
            for (Class<?> c : classes) {
                byte[] bytes;
                try {
                    bytes = classFiles.containsKey(c) ? classFiles.get(c) : DirectWeavingTest.classFile(c);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
                for (ClassFileTransformer t : new ArrayList<>(transformers)) {
                    try {
                        byte[] b = t.transform(c.getClassLoader(), c.getName().replace('.', '/'), c, c.getProtectionDomain(), bytes);
                        bytes = b == null ? bytes : b;
                    } catch (java.lang.instrument.IllegalClassFormatException e) {
                        throw new IllegalStateException(e);
                    }
                }
                redefined.put(c, bytes);
            }
        }

        @Override
        public boolean isRedefineClassesSupported() {
            return false;
        }

        @Override
        public void redefineClasses(ClassDefinition... definitions) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isModifiableClass(Class<?> theClass) {
            return true;
        }

        @Override
        public Class<?>[] getAllLoadedClasses() {
            return new Class<?>[] {Shapes.class, Shapes.Plain.class, String.class};
        }

        @Override
        public Class<?>[] getInitiatedClasses(ClassLoader loader) {
            return new Class<?>[0];
        }

        @Override
        public long getObjectSize(Object objectToSize) {
            return 0;
        }

        @Override
        public void appendToBootstrapClassLoaderSearch(JarFile jarfile) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void appendToSystemClassLoaderSearch(JarFile jarfile) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isNativeMethodPrefixSupported() {
            return false;
        }

        @Override
        public void setNativeMethodPrefix(ClassFileTransformer transformer, String prefix) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void redefineModule(Module module, Set<Module> extraReads, Map<String, Set<Module>> extraExports,
                                   Map<String, Set<Module>> extraOpens, Set<Class<?>> extraUses, Map<Class<?>, List<Class<?>>> extraProvides) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isModifiableModule(Module module) {
            return true;
        }
    }
}
