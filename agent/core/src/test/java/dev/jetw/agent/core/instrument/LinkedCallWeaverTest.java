package dev.jetw.agent.core.instrument;

import dev.jetw.bootstrap.CallHandler;
import dev.jetw.bootstrap.Dispatcher;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.utility.OpenedClassReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import testapp.Shapes;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The woven linked call advice on methods of awkward shapes ({@link Shapes}): the class passes the verifier
 * (HotSpot verifies a class when it is linked, which {@code getDeclaredMethods} forces: a broken frame fails
 * there), every method returns or throws what it did unwoven, and the handler sees one enter and one exit per
 * call, with the method's id, the token of its enter and the value it threw. Each with the frames as the class file
 * has them (the direct path's reader, and Byte Buddy's unless another wrapper asks) and expanded.
 */
class LinkedCallWeaverTest {

    /** Records every enter and exit; each enter's token is its sequence number. */
    private static final class Recording implements CallHandler {
        final List<String> events = new ArrayList<>();
        private long next;

        @Override
        public synchronized long enter(int methodId) {
            events.add("enter " + methodId + " #" + ++next);
            return next;
        }

        @Override
        public synchronized void exit(int methodId, long token, Throwable thrown) {
            events.add("exit " + methodId + " #" + token + (thrown == null ? "" : " " + thrown));
        }

        @Override
        public void checkpoint(String label, int level) {
        }
    }

    /** Defines one class from given bytes; everything else comes from the test's class path. */
    private static final class OneClassLoader extends ClassLoader {
        OneClassLoader() {
            super(LinkedCallWeaverTest.class.getClassLoader());
        }

        Class<?> define(String name, byte[] classFile) {
            return defineClass(name, classFile, 0, classFile.length);
        }
    }

    private final Recording recording = new Recording();

    @AfterEach
    void uninstall() {
        Dispatcher.install(null);
    }

    static byte[] classFile(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
            return in.readAllBytes();
        }
    }

    /** {@code expandFrames}: the reader expands the frames (another wrapper asked); else they come as in the class file. */
    private static TestWeaving weaving(UnaryOperator<MethodVisitor> below, boolean expandFrames) {
        return new TestWeaving("include=testapp.Shapes,trivial=trace",
                ClassFileLocator.ForClassLoader.of(LinkedCallWeaverTest.class.getClassLoader()), below, expandFrames);
    }

    /** The woven Shapes, defined and linked (so verified). */
    private static Class<?> wovenShapes(TestWeaving weaving) throws IOException {
        Class<?> c = new OneClassLoader().define(Shapes.class.getName(), weaving.weave(Shapes.class.getName(), classFile(Shapes.class)));
        c.getDeclaredMethods();
        return c;
    }

    private static Object call(Class<?> c, String name, Object... args) throws ReflectiveOperationException {
        for (Method m : c.getDeclaredMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == args.length) {
                m.setAccessible(true);
                Object target = Modifier.isStatic(m.getModifiers()) ? null : c.getDeclaredConstructor().newInstance();
                try {
                    return m.invoke(target, args);
                } catch (InvocationTargetException e) {
                    return e.getCause(); // what it threw, compared like a result
                }
            }
        }
        throw new NoSuchMethodException(name);
    }

    private static int id(TestWeaving weaving, String name) {
        for (Method m : Shapes.class.getDeclaredMethods()) {
            if (m.getName().equals(name)) {
                return weaving.idOf(Shapes.class.getName(), name, net.bytebuddy.jar.asm.Type.getMethodDescriptor(m));
            }
        }
        throw new IllegalArgumentException(name);
    }

    private static String same(Object result) {
        if (result instanceof Throwable) {
            return result.getClass().getName() + ": " + ((Throwable) result).getMessage();
        }
        if (result instanceof int[]) {
            return Arrays.toString((int[]) result);
        }
        return Objects.toString(result);
    }

    /** Each call: the result as unwoven, and one enter/exit pair with the id and the token. */
    @ParameterizedTest(name = "expandFrames={0}")
    @ValueSource(booleans = {false, true})
    void everyShapeReturnsWhatItDidAndReportsOneCall(boolean expandFrames) throws Exception {
        TestWeaving weaving = weaving(null, expandFrames);
        Class<?> woven = wovenShapes(weaving);
        Object[][] calls = {
            {"none"}, {"bool", 3}, {"aByte", 300}, {"aChar", 2}, {"aShort", 500}, {"anInt", 6}, {"aLong", 5L},
            {"aFloat", 2f}, {"aDouble", 2d}, {"anObject", 9}, {"anArray", 4},
            {"mixed", 1L, 2.5d, new int[3], "four", 0.5f}, {"longLocalAtTop", 21}, {"loopAtStart", 40}, {"localsChoppedAfterALoop", 9},
            {"doWhileAtStart", 5}, {"tryCatchFinally", 4}, {"synchronizedBlock", 2}, {"synchronizedMethod", 5},
            {"tableSwitch", 2}, {"tableSwitch", 9}, {"lookupSwitch", 1 << 20}, {"stringSwitch", "b"}, {"lambda", 6},
            {"uninitializedOnStack", true}, {"uninitializedOnStack", false}, {"earlyReturns", 0}, {"earlyReturns", -5},
            {"wide", 3L},
        };
        Dispatcher.install(recording);
        for (Object[] call : calls) {
            String name = (String) call[0];
            Object[] args = Arrays.copyOfRange(call, 1, call.length);
            recording.events.clear();
            assertEquals(same(call(Shapes.class, name, args)), same(call(woven, name, args)), name);
            int id = id(weaving, name);
            assertNotEquals(0, id, name);
            assertEquals(Arrays.asList("enter " + id + " #" + (recording.events.isEmpty() ? "?" : recording.events.get(0).split("#")[1]),
                    "exit " + id + " #" + (recording.events.isEmpty() ? "?" : recording.events.get(0).split("#")[1])),
                    recording.events, name);
        }
    }

    /** A thrown value reaches the exit of every woven frame it passes, and the caller still sees it. */
    @ParameterizedTest(name = "expandFrames={0}")
    @ValueSource(booleans = {false, true})
    void thrownValuesAreReportedAndRethrown(boolean expandFrames) throws Exception {
        TestWeaving weaving = weaving(null, expandFrames);
        Class<?> woven = wovenShapes(weaving);
        Dispatcher.install(recording);

        Object thrown = call(woven, "onlyThrows", "boom");
        assertEquals("java.lang.IllegalStateException: boom", same(thrown));
        int onlyThrows = id(weaving, "onlyThrows");
        assertEquals(Arrays.asList("enter " + onlyThrows + " #1", "exit " + onlyThrows + " #1 " + thrown), recording.events);

        recording.events.clear();
        Object caught = call(woven, "catchesWhatItCalls", 7);
        assertEquals(same(call(Shapes.class, "catchesWhatItCalls", 7)), same(caught));
        int catches = id(weaving, "catchesWhatItCalls");
        assertEquals(4, recording.events.size(), recording.events.toString());
        assertEquals("enter " + catches + " #2", recording.events.get(0));
        assertEquals("enter " + onlyThrows + " #3", recording.events.get(1));
        assertTrue(recording.events.get(2).startsWith("exit " + onlyThrows + " #3 java.lang.IllegalStateException: inner 7"),
                recording.events.get(2));
        assertEquals("exit " + catches + " #2", recording.events.get(3));

        recording.events.clear();
        Object propagated = call(woven, "propagates", 2);
        assertEquals("java.lang.UnsupportedOperationException: no 2", same(propagated));
        int propagates = id(weaving, "propagates");
        int thrower = id(weaving, "thrower");
        int anInt = id(weaving, "anInt");
        assertEquals(Arrays.asList("enter " + propagates + " #4", "enter " + anInt + " #5", "exit " + anInt + " #5",
                "enter " + thrower + " #6", "exit " + thrower + " #6 " + propagated,
                "exit " + propagates + " #4 " + propagated), recording.events);
    }

    @ParameterizedTest(name = "expandFrames={0}")
    @ValueSource(booleans = {false, true})
    void nestedAndRecursiveCallsPairUp(boolean expandFrames) throws Exception {
        TestWeaving weaving = weaving(null, expandFrames);
        Class<?> woven = wovenShapes(weaving);
        Dispatcher.install(recording);
        assertEquals(same(call(Shapes.class, "fib", 10)), same(call(woven, "fib", 10)));
        int fib = id(weaving, "fib");
        // fib(10) makes 177 calls; as a stack, every exit closes the latest open enter
        assertEquals(2 * 177, recording.events.size());
        List<String> open = new ArrayList<>();
        for (String e : recording.events) {
            String[] parts = e.split(" ");
            assertEquals(String.valueOf(fib), parts[1], e);
            if (parts[0].equals("enter")) {
                open.add(parts[2]);
            } else {
                assertEquals(open.remove(open.size() - 1), parts[2], e);
            }
        }
        assertTrue(open.isEmpty());

        recording.events.clear();
        assertEquals(same(call(Shapes.class, "nested", 4)), same(call(woven, "nested", 4)));
        assertEquals(8, recording.events.size(), recording.events.toString());
    }

    /** Without a handler (token 0) the exits return at once and the methods work as unwoven. */
    @ParameterizedTest(name = "expandFrames={0}")
    @ValueSource(booleans = {false, true})
    void withoutAHandlerNothingIsReportedAndResultsAreUnchanged(boolean expandFrames) throws Exception {
        Class<?> woven = wovenShapes(weaving(null, expandFrames));
        assertEquals(null, Dispatcher.handler());
        assertEquals(same(call(Shapes.class, "wide", 11L)), same(call(woven, "wide", 11L)));
        assertEquals(same(call(Shapes.class, "onlyThrows", "x")), same(call(woven, "onlyThrows", "x")));
        assertEquals(same(call(Shapes.class, "catchesWhatItCalls", 3)), same(call(woven, "catchesWhatItCalls", 3)));
    }

    /**
     * The check above can fail: a token typed float instead of long in the frames is refused by the verifier when
     * the class is linked (getDeclaredMethods), before any method runs.
     */
    /** Stands in for Dispatcher.exit in {@link #anExitThatFailsInTheHandlerDoesNotReplaceTheApplicationsThrowable}. */
    public static final class FailingExit {
        private FailingExit() {
        }

        public static void exit(int methodId, long token, Throwable thrown) {
            if (thrown != null) {
                throw new StackOverflowError("the exit call itself failed");
            }
        }
    }

    /**
     * The exit call in the body's handler fails (as a StackOverflowError at the edge of the stack would): the method still
     * throws what it threw, not the exit's error.
     */
    @ParameterizedTest(name = "expandFrames={0}")
    @ValueSource(booleans = {false, true})
    void anExitThatFailsInTheHandlerDoesNotReplaceTheApplicationsThrowable(boolean expandFrames) throws Exception {
        UnaryOperator<MethodVisitor> failingExit = mv -> new MethodVisitor(OpenedClassReader.ASM_API, mv) {
            @Override
            public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
                if (owner.equals("dev/jetw/bootstrap/Dispatcher") && name.equals("exit")) {
                    owner = FailingExit.class.getName().replace('.', '/');
                }
                super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
            }
        };
        Class<?> woven = wovenShapes(weaving(failingExit, expandFrames));
        Dispatcher.install(recording);
        assertEquals("java.lang.IllegalStateException: boom", same(call(woven, "onlyThrows", "boom")));
        assertEquals("java.lang.UnsupportedOperationException: no 2", same(call(woven, "propagates", 2)), "through two woven methods");
    }

    @ParameterizedTest(name = "expandFrames={0}")
    @ValueSource(booleans = {false, true})
    void aBrokenFrameFailsVerification(boolean expandFrames) {
        UnaryOperator<MethodVisitor> tokenAsFloat = mv -> new MethodVisitor(OpenedClassReader.ASM_API, mv) {
            @Override
            public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
                Object[] changed = local.clone();
                if (numLocal > 0 && changed[numLocal - 1] == Opcodes.LONG) {
                    changed[numLocal - 1] = Opcodes.FLOAT;
                }
                super.visitFrame(type, numLocal, changed, numStack, stack);
            }
        };
        VerifyError e = assertThrows(VerifyError.class, () -> wovenShapes(weaving(tokenAsFloat, expandFrames)));
        assertFalse(e.getMessage().isEmpty());
    }

    /**
     * Byte Buddy's path asks for no expanded frames (ASM's recompression of every frame was the largest compilation of a
     * short job: BENCHMARKS.md §23); the weaver still takes them expanded when another wrapper asks (the tests above).
     */
    @Test
    void theWeaverAsksForTheFramesAsTheClassFileHasThem() {
        LinkedCallWeaver weaver = new LinkedCallWeaver(weaving(null, false).registry, (t, m) -> -1);
        assertEquals(0, weaver.on(net.bytebuddy.matcher.ElementMatchers.any()).mergeReader(0) & net.bytebuddy.jar.asm.ClassReader.EXPAND_FRAMES);
    }

    /**
     * The form of the frames changes the StackMapTable only: woven from compressed or from expanded frames, every method
     * has the same code, exception table and sizes (so the same behaviour and cost when it runs). Compared as the class
     * files rewritten without their frames into a fresh constant pool.
     */
    @Test
    void bothFormsOfTheFramesWeaveTheSameCode() throws IOException {
        byte[] compressed = weaving(null, false).weave(Shapes.class.getName(), classFile(Shapes.class));
        byte[] expanded = weaving(null, true).weave(Shapes.class.getName(), classFile(Shapes.class));
        assertFalse(Arrays.equals(compressed, expanded), "the frames are written differently");
        assertTrue(Arrays.equals(withoutFrames(compressed), withoutFrames(expanded)));
    }

    private static byte[] withoutFrames(byte[] classFile) {
        net.bytebuddy.jar.asm.ClassWriter writer = new net.bytebuddy.jar.asm.ClassWriter(0);
        new net.bytebuddy.jar.asm.ClassReader(classFile).accept(writer, net.bytebuddy.jar.asm.ClassReader.SKIP_FRAMES);
        return writer.toByteArray();
    }

    /** The shapes hold every kind of compressed frame, so that the tests above weave each kind as the class file has it. */
    @Test
    void theShapesHoldEveryKindOfCompressedFrame() throws IOException {
        java.util.Set<Integer> kinds = new java.util.TreeSet<>();
        new net.bytebuddy.jar.asm.ClassReader(classFile(Shapes.class)).accept(new net.bytebuddy.jar.asm.ClassVisitor(OpenedClassReader.ASM_API) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                return new MethodVisitor(OpenedClassReader.ASM_API) {
                    @Override
                    public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
                        kinds.add(type);
                    }
                };
            }
        }, 0);
        assertEquals(new java.util.TreeSet<>(Arrays.asList(Opcodes.F_FULL, Opcodes.F_APPEND, Opcodes.F_CHOP, Opcodes.F_SAME, Opcodes.F_SAME1)),
                kinds);
    }

    @Test
    void maxLocalsAreReadFromTheClassFile() throws IOException {
        java.util.Map<String, Integer> maxLocals = OriginalMaxLocals.of(classFile(Shapes.class));
        assertEquals(0, maxLocals.get("none()V"));
        assertEquals(1, maxLocals.get("anInt(I)I"));
        assertEquals(4, maxLocals.get("longLocalAtTop(I)J")); // n, i, last (two slots)
        assertTrue(maxLocals.get("wide(J)J") > 255, maxLocals.toString());
        assertEquals(8, maxLocals.get("mixed(JD[ILjava/lang/String;F)D")); // this, a (2), b (2), c, d, e
        assertTrue(OriginalMaxLocals.of(new byte[] {(byte) 0xCA, (byte) 0xFE, 0, 0, 0, 52, 0, 9}).isEmpty());
    }
}
