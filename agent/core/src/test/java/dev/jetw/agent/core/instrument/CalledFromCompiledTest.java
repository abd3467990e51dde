package dev.jetw.agent.core.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/**
 * The classes the hot code may have inlined (docs/attach-ramp.md): those whose small method (at most MaxInlineSize's 35
 * bytes of bytecode) the hot classes' bytecode calls; a class whose called methods are all larger, or that is not
 * called, is not among them.
 */
class CalledFromCompiledTest {

    static final class Caller {
        static int run(int x) {
            return Small.twice(x) + Large.mix(x);
        }
    }

    static final class Small {
        static int twice(int x) {
            return 2 * x;
        }

        static int unusedLarge(int x) {
            int s = x;
            for (int i = 0; i < 10; i++) {
                s = s * 31 + i ^ (s >>> 3) + (s << 2) - i * 7 + (s % 13) + (s / 5) + (i & s) + (i | s);
            }
            return s;
        }
    }

    static final class Large {
        static int mix(int x) {
            int s = x;
            for (int i = 0; i < 10; i++) {
                s = s * 31 + i ^ (s >>> 3) + (s << 2) - i * 7 + (s % 13) + (s / 5) + (i & s) + (i | s);
            }
            return s;
        }

        static int tiny() {
            return 1;
        }
    }

    static final class NotCalled {
        static int tiny() {
            return 1;
        }
    }

    @Test
    void aClassWithASmallMethodTheHotCodeCallsIsCalledFromItAndOthersAreNot() {
        Map<String, Set<String>> invoked = CalledFromCompiled.invokedBy(Collections.<Class<?>>singletonList(Caller.class));
        assertEquals(Collections.singleton("twice(I)I"), invoked.get(Small.class.getName()));

        assertTrue(CalledFromCompiled.calledFrom(Small.class, invoked), "twice: a few bytes, called by Caller");
        assertFalse(CalledFromCompiled.calledFrom(Large.class, invoked), "mix is called but larger than 35 bytes; tiny is small but not called");
        assertFalse(CalledFromCompiled.calledFrom(NotCalled.class, invoked), "not called");
    }

    @Test
    void aClassWithoutAClassFileAddsNothingAndIsNotCalled() {
        assertTrue(CalledFromCompiled.invokedBy(Collections.<Class<?>>singletonList(int[].class)).isEmpty(), "no class file to read");
        assertFalse(CalledFromCompiled.calledFrom(int[].class, Collections.singletonMap(int[].class.getName(),
                Collections.singleton("clone()Ljava/lang/Object;"))), "named by the hot code, but no class file to tell its size");
    }

    /** A class file with methods {@code m<N>()V} of exactly N bytes of bytecode each (N - 1 nops and a return). */
    private static byte[] methodsOfLength(int... lengths) {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "sizes/Sized", null, "java/lang/Object", null);
        for (int n : lengths) {
            MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "m" + n, "()V", null, null);
            mv.visitCode();
            for (int i = 0; i < n - 1; i++) {
                mv.visitInsn(Opcodes.NOP);
            }
            mv.visitInsn(Opcodes.RETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** MaxInlineSize is inclusive: HotSpot inlines a callee of 35 bytes, not one of 36. */
    @Test
    void smallIsAtMostThirtyFiveBytes() {
        Map<String, Integer> lengths = CalledFromCompiled.codeLengths(methodsOfLength(35, 36));
        assertEquals(Integer.valueOf(35), lengths.get("m35()V"));
        assertEquals(Integer.valueOf(36), lengths.get("m36()V"));
        assertTrue(CalledFromCompiled.anySmall(lengths, Collections.singleton("m35()V")));
        assertFalse(CalledFromCompiled.anySmall(lengths, Collections.singleton("m36()V")));
        assertTrue(CalledFromCompiled.anySmall(lengths, new HashSet<>(java.util.Arrays.asList("m36()V", "m35()V"))));
    }

    @Test
    void aClassFileThatCannotBeReadHasNoCodeLengths() {
        byte[] cut = methodsOfLength(3);
        assertTrue(CalledFromCompiled.codeLengths(java.util.Arrays.copyOf(cut, cut.length - 20)).isEmpty(), "cut off in its methods");
        assertTrue(CalledFromCompiled.codeLengths(new byte[] {(byte) 0xCA, (byte) 0xFE}).isEmpty(), "not a class file");
    }
}
