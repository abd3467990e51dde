package dev.jetw.agent.core.instrument;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.utility.OpenedClassReader;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The classes whose small methods the bytecode of the hot classes (on a running stack or compiled at attach) invokes:
 * the classes the JIT may have inlined into the hot code, which the JVM's code list does not name (it names compiled
 * roots only). Retransforming such a class throws away the hot code that inlined any of its methods, so the attach ramp
 * counts it hot (docs/attach-ramp.md; BENCHMARKS.md §24). Told from the class files as their loaders serve them; a class
 * file that cannot be read or walked adds nothing and counts nothing (the class stays as it was sorted).
 */
final class CalledFromCompiled {

    /** HotSpot's MaxInlineSize: a callee of at most this many bytes of bytecode is inlined wherever its call is compiled. */
    static final int SMALL = 35;

    private CalledFromCompiled() {
    }

    /** Per class (binary name) the methods (NAME + DESCRIPTOR) the methods of {@code hot} invoke, read from their class files. */
    static Map<String, Set<String>> invokedBy(List<Class<?>> hot) {
        final Map<String, Set<String>> invoked = new HashMap<>();
        final MethodVisitor calls = new MethodVisitor(OpenedClassReader.ASM_API) {
            @Override
            public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
                String c = owner.replace('/', '.');
                Set<String> methods = invoked.get(c);
                if (methods == null) {
                    methods = new HashSet<>();
                    invoked.put(c, methods);
                }
                methods.add(name + descriptor);
            }
        };
        ClassVisitor methods = new ClassVisitor(OpenedClassReader.ASM_API) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                return calls;
            }
        };
        for (Class<?> c : hot) {
            byte[] file = LoadedClassFiles.read(c);
            if (file == null) {
                continue;
            }
            try {
                OpenedClassReader.of(file).accept(methods, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
            } catch (RuntimeException e) {
                // a class file ASM cannot read adds nothing
            }
        }
        return invoked;
    }

    /** Whether the hot code invokes a method of {@code c} declared in it with at most {@link #SMALL} bytes of bytecode. */
    static boolean calledFrom(Class<?> c, Map<String, Set<String>> invoked) {
        Set<String> methods = invoked.get(c.getName());
        if (methods == null) {
            return false;
        }
        byte[] file = LoadedClassFiles.read(c);
        if (file == null) {
            return false;
        }
        try {
            return anySmall(OpenedClassReader.of(file), methods);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Whether a method of {@code methods} (NAME + DESCRIPTOR) holds at most {@link #SMALL} bytes of bytecode. */
    private static boolean anySmall(ClassReader r, Set<String> methods) {
        for (Map.Entry<String, Integer> m : codeLengths(r).entrySet()) {
            if (m.getValue() <= SMALL && methods.contains(m.getKey())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Each method's {@code code_length} (JVMS 4.7.3), by NAME + DESCRIPTOR, walked from the class file's method table
     * (methods without code, abstract or native, are absent).
     */
    static Map<String, Integer> codeLengths(ClassReader r) {
        Map<String, Integer> lengths = new HashMap<>();
        char[] buf = new char[r.getMaxStringLength()];
        int at = r.header + 6;
        at += 2 + 2 * r.readUnsignedShort(at); // interfaces
        int fields = r.readUnsignedShort(at);
        at += 2;
        for (int i = 0; i < fields; i++) {
            at = skipAttributes(r, at + 6);
        }
        int count = r.readUnsignedShort(at);
        at += 2;
        for (int i = 0; i < count; i++) {
            String method = r.readUTF8(at + 2, buf) + r.readUTF8(at + 4, buf);
            int attributes = r.readUnsignedShort(at + 6);
            at += 8;
            for (int a = 0; a < attributes; a++) {
                if ("Code".equals(r.readUTF8(at, buf))) {
                    lengths.put(method, r.readInt(at + 10)); // name, length, max_stack, max_locals, then code_length
                }
                at += 6 + r.readInt(at + 2);
            }
        }
        return lengths;
    }

    private static int skipAttributes(ClassReader r, int at) {
        int attributes = r.readUnsignedShort(at);
        at += 2;
        for (int a = 0; a < attributes; a++) {
            at += 6 + r.readInt(at + 2);
        }
        return at;
    }
}
