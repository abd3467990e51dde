package dev.jetw.agent.core.handoff;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;
import net.bytebuddy.utility.OpenedClassReader;

import java.util.Arrays;

/**
 * Weaves the calls of {@link HandoffPoint} into one JDK class file with ASM, as the earlier Byte Buddy advice
 * ({@code @Advice.OnMethodEnter/OnMethodExit(suppress = Throwable.class)}) inlined them: at entry the task argument is
 * replaced by the call's result; at {@code shutdownNow}'s normal returns the returned list is handed to the call. Each
 * call is in a try/catch of its own that drops any Throwable (the argument, the return value stay the application's),
 * so nothing escapes into the JDK's code. No field or method is added and nothing of the original code moves (the
 * woven locals are above the method's own), so the class can be retransformed and restored. The frames are written
 * by hand from the expanded ones ({@code EXPAND_FRAMES}): nothing is computed, no class is loaded from here.
 */
final class HandoffWeaver {

    private static final String THROWABLE = "java/lang/Throwable";
    private static final Object[] NO_STACK = new Object[0];

    private HandoffWeaver() {
    }

    /** The woven class file, or null when the class holds no hand-off point. */
    static byte[] weave(byte[] classFile) {
        ClassReader reader = OpenedClassReader.of(classFile);
        ClassWriter writer = new ClassWriter(reader, 0);
        PointFinder finder = new PointFinder(writer);
        reader.accept(finder, ClassReader.EXPAND_FRAMES);
        return finder.woven == 0 ? null : writer.toByteArray();
    }

    /** Hands each method that is a hand-off point to its weaver. */
    private static final class PointFinder extends ClassVisitor {
        private String owner;
        int woven;

        PointFinder(ClassVisitor writer) {
            super(OpenedClassReader.ASM_API, writer);
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            owner = name;
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
            if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
                return mv;
            }
            HandoffPoint point = HandoffPoint.of(owner, access, name, descriptor);
            if (point == null) {
                return mv;
            }
            woven++;
            return new PointVisitor(mv, point, descriptor, initialLocals(owner, name, descriptor));
        }
    }

    /** The locals at a method's first instruction (ASM's expanded form): this, uninitialized in a constructor, and the arguments. */
    static Object[] initialLocals(String owner, String name, String descriptor) {
        Type[] arguments = Type.getArgumentTypes(descriptor);
        Object[] locals = new Object[arguments.length + 1];
        locals[0] = name.equals("<init>") ? Opcodes.UNINITIALIZED_THIS : owner;
        for (int i = 0; i < arguments.length; i++) {
            Type a = arguments[i];
            switch (a.getSort()) {
                case Type.LONG:
                    locals[i + 1] = Opcodes.LONG;
                    break;
                case Type.DOUBLE:
                    locals[i + 1] = Opcodes.DOUBLE;
                    break;
                case Type.FLOAT:
                    locals[i + 1] = Opcodes.FLOAT;
                    break;
                case Type.OBJECT:
                    locals[i + 1] = a.getInternalName();
                    break;
                case Type.ARRAY:
                    locals[i + 1] = a.getDescriptor();
                    break;
                default:
                    locals[i + 1] = Opcodes.INTEGER;
            }
        }
        return locals;
    }

    /** Weaves one point's call into one method. */
    private static final class PointVisitor extends MethodVisitor {
        private final HandoffPoint point;
        private final Object[] initialLocals;
        /** The method's return type, internal name (an exit point returns a reference). */
        private final String returned;
        /** The exit block every normal return of an exit point jumps to (created at the first one). */
        private Label exit;

        PointVisitor(MethodVisitor writer, HandoffPoint point, String descriptor, Object[] initialLocals) {
            super(OpenedClassReader.ASM_API, writer);
            this.point = point;
            this.initialLocals = initialLocals;
            this.returned = Type.getReturnType(descriptor).getInternalName();
        }

        /**
         * At entry: {@code try { task = Handoff.x(...); } catch (Throwable ignored) { }}, then a nop, which keeps the
         * frame after the handler off the offset of an original frame at the first instruction.
         */
        @Override
        public void visitCode() {
            super.visitCode();
            if (point.atExit()) {
                return;
            }
            guardedCall(initialLocals, -1);
            super.visitInsn(Opcodes.NOP);
        }

        /**
         * The call in a try/catch of its own that drops any Throwable: its arguments from {@code argumentLocal} (>= 0)
         * or the point's loads; its result, if any, into the task's local 1. {@code locals}: the frame's locals at the
         * handler and after it.
         */
        private void guardedCall(Object[] locals, int argumentLocal) {
            Label start = new Label();
            Label end = new Label();
            Label handler = new Label();
            Label after = new Label();
            super.visitTryCatchBlock(start, end, handler, THROWABLE);
            super.visitLabel(start);
            if (argumentLocal >= 0) {
                super.visitVarInsn(Opcodes.ALOAD, argumentLocal);
            } else {
                point.pushArguments(mv);
            }
            super.visitMethodInsn(Opcodes.INVOKESTATIC, HandoffPoint.HANDOFF, point.method, point.descriptor, false);
            if (point.replacesTask()) {
                super.visitVarInsn(Opcodes.ASTORE, 1);
            }
            super.visitLabel(end);
            super.visitJumpInsn(Opcodes.GOTO, after);
            super.visitLabel(handler);
            super.visitFrame(Opcodes.F_NEW, locals.length, locals, 1, new Object[] {THROWABLE});
            super.visitInsn(Opcodes.POP);
            super.visitLabel(after);
            super.visitFrame(Opcodes.F_NEW, locals.length, locals, 0, NO_STACK);
        }

        /** An exit point's normal return jumps to the exit block, with the returned value on the stack. */
        @Override
        public void visitInsn(int opcode) {
            if (point.atExit() && opcode == Opcodes.ARETURN) {
                if (exit == null) {
                    exit = new Label();
                }
                super.visitJumpInsn(Opcodes.GOTO, exit);
                return;
            }
            super.visitInsn(opcode);
        }

        /**
         * The exit block, after the original code: the returned value is kept in a local above the method's own,
         * handed to the call in a try/catch of its own and returned as it is.
         */
        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            if (exit == null) {
                super.visitMaxs(Math.max(maxStack, HandoffPoint.MAX_STACK), maxLocals);
                return;
            }
            Object[] kept = new Object[maxLocals + 1];
            Arrays.fill(kept, Opcodes.TOP);
            kept[maxLocals] = returned;
            super.visitLabel(exit);
            super.visitFrame(Opcodes.F_NEW, 0, new Object[0], 1, new Object[] {returned});
            super.visitVarInsn(Opcodes.ASTORE, maxLocals);
            guardedCall(kept, maxLocals);
            super.visitVarInsn(Opcodes.ALOAD, maxLocals);
            super.visitInsn(Opcodes.ARETURN);
            super.visitMaxs(Math.max(maxStack, HandoffPoint.MAX_STACK), maxLocals + 1);
        }
    }
}
