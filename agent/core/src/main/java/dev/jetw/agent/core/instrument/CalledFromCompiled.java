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
        return anySmall(codeLengths(file), methods);
    }

    /** Whether a method of {@code methods} (NAME + DESCRIPTOR) has at most {@link #SMALL} bytes of bytecode in {@code lengths}. */
    static boolean anySmall(Map<String, Integer> lengths, Set<String> methods) {
        for (Map.Entry<String, Integer> m : lengths.entrySet()) {
            if (m.getValue() <= SMALL && methods.contains(m.getKey())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Each method's {@code code_length} (JVMS 4.7.3), by NAME + DESCRIPTOR, from the class file's method table
     * ({@link MethodSkim}; methods without code, abstract or native, are absent); empty when the file cannot be read.
     */
    static Map<String, Integer> codeLengths(byte[] classFile) {
        Map<String, Integer> lengths = new HashMap<>();
        try {
            MethodSkim skim = MethodSkim.of(classFile);
            for (int m = 0; m < skim.methods; m++) {
                if (skim.codeAt[m] >= 0) {
                    lengths.put(skim.key(m), ConstantPool.u4(classFile, skim.codeAt[m] + 4)); // after max_stack, max_locals
                }
            }
        } catch (RuntimeException | java.io.IOException e) {
            lengths.clear(); // a cut-off or malformed file: nothing is counted small
        }
        return lengths;
    }
}
