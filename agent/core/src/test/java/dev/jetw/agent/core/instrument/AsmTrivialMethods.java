package dev.jetw.agent.core.instrument;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.utility.OpenedClassReader;

import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

/**
 * The trivial-method scan as it was until 2026-11-29, with ASM's reader (a full pass over the class file, every
 * method's code visited): the oracle {@link TrivialMethodsScanTest} holds {@link TrivialMethods}' byte scan to.
 */
final class AsmTrivialMethods {

    /** Getters are 2-3 instructions, setters 4; a handful of arithmetic on fields stays within this. */
    static final int MAX_INSTRUCTIONS = TrivialMethods.MAX_INSTRUCTIONS;

    private AsmTrivialMethods() {
    }

    /** The trivial methods of {@code classFile} as name + descriptor; empty when the file cannot be read. */
    static Set<String> of(byte[] classFile) {
        try {
            ClassReader reader = OpenedClassReader.of(classFile);
            Finder finder = new Finder(reader.getClassName());
            reader.accept(finder, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
            return finder.trivial;
        } catch (RuntimeException | LinkageError e) {
            return Collections.emptySet(); // unreadable here: every method stays eligible, Byte Buddy reports its own errors
        }
    }

    private static final class Finder extends ClassVisitor {
        private final String owner;
        final Set<String> trivial = new HashSet<>();

        Finder(String owner) {
            super(OpenedClassReader.ASM_API);
            this.owner = owner;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_SYNCHRONIZED)) != 0) {
                return null;
            }
            return new Scan(name + descriptor);
        }

        /** Scans one method's code; any disqualifying instruction marks it not trivial. */
        private final class Scan extends MethodVisitor {
            private final String key;
            private int instructions;
            private boolean disqualified;
            /** Labels already passed: a jump to one of them goes backward (a loop). */
            private final Set<Label> passed = new HashSet<>();

            Scan(String key) {
                super(OpenedClassReader.ASM_API);
                this.key = key;
            }

            private void count() {
                if (++instructions > MAX_INSTRUCTIONS) {
                    disqualified = true;
                }
            }

            @Override
            public void visitInsn(int opcode) {
                count();
                if (opcode == Opcodes.MONITORENTER) {
                    disqualified = true;
                }
            }

            @Override
            public void visitIntInsn(int opcode, int operand) {
                count();
                if (opcode == Opcodes.NEWARRAY) {
                    disqualified = true;
                }
            }

            @Override
            public void visitVarInsn(int opcode, int var) {
                count();
            }

            @Override
            public void visitTypeInsn(int opcode, String type) {
                count();
                if (opcode == Opcodes.NEW || opcode == Opcodes.ANEWARRAY) {
                    disqualified = true;
                }
            }

            @Override
            public void visitFieldInsn(int opcode, String fieldOwner, String name, String descriptor) {
                count();
                if ((opcode == Opcodes.GETSTATIC || opcode == Opcodes.PUTSTATIC) && !fieldOwner.equals(owner)) {
                    disqualified = true;
                }
            }

            @Override
            public void visitMethodInsn(int opcode, String methodOwner, String name, String descriptor, boolean isInterface) {
                disqualified = true;
            }

            @Override
            public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
                disqualified = true;
            }

            @Override
            public void visitLabel(Label label) {
                passed.add(label);
            }

            @Override
            public void visitJumpInsn(int opcode, Label label) {
                count();
                if (opcode == Opcodes.JSR || passed.contains(label)) {
                    disqualified = true;
                }
            }

            private void forwardOnly(Label dflt, Label... labels) {
                count();
                if (passed.contains(dflt)) {
                    disqualified = true;
                }
                for (Label l : labels) {
                    if (passed.contains(l)) {
                        disqualified = true;
                    }
                }
            }

            @Override
            public void visitLdcInsn(Object value) {
                count();
            }

            @Override
            public void visitIincInsn(int var, int increment) {
                count();
            }

            @Override
            public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
                forwardOnly(dflt, labels);
            }

            @Override
            public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
                forwardOnly(dflt, labels);
            }

            @Override
            public void visitMultiANewArrayInsn(String descriptor, int dimensions) {
                disqualified = true;
            }

            @Override
            public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
                disqualified = true;
            }

            @Override
            public void visitEnd() {
                if (!disqualified && instructions > 0) {
                    trivial.add(key);
                }
            }
        }
    }
}
