package dev.jetw.agent.core.instrument;

import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.utility.OpenedClassReader;

import java.util.ArrayList;
import java.util.List;

/**
 * Weaves the linked call advice into one method as ASM reads it (docs/weaving.md): the entry
 * ({@code invokedynamic enter()J}, its token kept in the local just above the method's own), a
 * {@code Dispatcher.exit} before every return, and a handler over the original code that reports a thrown
 * value and rethrows it. Nothing of the original code moves to another local or changes: the woven locals
 * are appended, and every original stack-map frame gets them appended too. Takes the frames as the reader
 * gives them, in one form per method: expanded ({@code ClassReader.EXPAND_FRAMES}, every frame F_NEW, written
 * F_NEW) or as the class file has them (compressed: a same frame is passed on as it is, every other frame is
 * written in full from the locals this visitor tracks). The compressed form is the cheap one: ASM's writer then
 * copies a frame's entries, where an expanded frame goes through its frame comparison and recompression
 * (BENCHMARKS.md §23).
 */
final class LinkedCallVisitor extends MethodVisitor {

    private static final String THROWABLE = "java/lang/Throwable";
    private static final String DISPATCHER = "dev/jetw/bootstrap/Dispatcher";
    private static final String EXIT_DESCRIPTOR = "(IJL" + THROWABLE + ";)V";
    /** {@code MethodEntries.link(Lookup, String, MethodType, int)}: the bootstrap of the entry. */
    static final Handle LINK = new Handle(Opcodes.H_INVOKESTATIC, "dev/jetw/bootstrap/MethodEntries", "link",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;I)Ljava/lang/invoke/CallSite;",
            false);
    /** What the woven code adds to the operand stack at most: an int and a long and a reference at a return site. */
    static final int EXTRA_STACK = 4;

    private final int methodId;
    /** The method's original max_locals: the token's slot (a long, two slots); the thrown value is two above it. */
    private final int tokenSlot;
    private final int thrownSlot;
    /** The locals at the method's first instruction (this and the parameters), expanded. */
    private final Object[] initialLocals;
    /** The reader expands the frames (every frame F_NEW); else they come as the class file has them. */
    private final boolean expandedFrames;
    /** Compressed frames: the original locals at the latest frame (what its same frames and deltas refer to). */
    private Object[] frameLocals;
    private int frameLocalCount;

    private final Label entryStart = new Label();
    private final Label entryEnd = new Label();
    private final Label entryHandler = new Label();
    private final Label body = new Label();
    private final Label bodyHandler = new Label();
    /** The original code, cut at each return site: start, end, start, end... (the exits are not covered). */
    private final List<Label> covered = new ArrayList<>();
    private Label rangeStart;
    private boolean rangeHasCode;

    LinkedCallVisitor(MethodVisitor delegate, int methodId, int tokenSlot, Object[] initialLocals, boolean expandedFrames) {
        super(OpenedClassReader.ASM_API, delegate);
        this.methodId = methodId;
        this.tokenSlot = tokenSlot;
        this.thrownSlot = tokenSlot + 2;
        this.initialLocals = initialLocals;
        this.expandedFrames = expandedFrames;
        this.frameLocals = initialLocals;
        this.frameLocalCount = initialLocals.length;
    }

    /**
     * The entry, first in the code: its handler is registered in {@link #visitMaxs}, after the method's own (ASM
     * visits those right after this), so that they stay ahead of the woven ones. Written here rather than at the
     * first instruction: a test before every instruction made the JIT inline the entry's writing (ASM's constant pool
     * work for the invokedynamic) into each visit method of this class, the largest compilations of the weaver
     * (BENCHMARKS.md §23). A linkage failure of the invokedynamic (e.g. a StackOverflowError in its bootstrap) is
     * caught and the method runs untraced, token 0. The nop keeps the frame at {@code body} off the offset of an
     * original frame at the first instruction.
     */
    @Override
    public void visitCode() {
        super.visitCode();
        super.visitLabel(entryStart);
        super.visitInvokeDynamicInsn("enter", "()J", LINK, methodId);
        super.visitLabel(entryEnd);
        super.visitVarInsn(Opcodes.LSTORE, tokenSlot);
        super.visitLabel(body);
        fullFrame(WovenFrames.withToken(initialLocals.length, initialLocals, tokenSlot), 0, new Object[0]);
        super.visitInsn(Opcodes.NOP);
        rangeStart = body;
        rangeHasCode = true;
    }

    /** Ends the covered range at this point (before an exit), keeping it only if it holds an instruction. */
    private void closeRange() {
        if (rangeHasCode) {
            Label end = new Label();
            super.visitLabel(end);
            covered.add(rangeStart);
            covered.add(end);
        }
        rangeStart = null;
        rangeHasCode = false;
    }

    private void code() {
        rangeHasCode = true;
    }

    private void pushMethodId() {
        if (methodId <= 5) {
            super.visitInsn(Opcodes.ICONST_0 + methodId);
        } else if (methodId <= Byte.MAX_VALUE) {
            super.visitIntInsn(Opcodes.BIPUSH, methodId);
        } else if (methodId <= Short.MAX_VALUE) {
            super.visitIntInsn(Opcodes.SIPUSH, methodId);
        } else {
            super.visitLdcInsn(methodId);
        }
    }

    @Override
    public void visitInsn(int opcode) {
        if (opcode < Opcodes.IRETURN || opcode > Opcodes.RETURN) {
            code();
            super.visitInsn(opcode);
            return;
        }
        // A return: the exit, with no branch (so no frame here, and nothing assumed about the operand stack).
        closeRange();
        pushMethodId();
        super.visitVarInsn(Opcodes.LLOAD, tokenSlot);
        super.visitInsn(Opcodes.ACONST_NULL);
        super.visitMethodInsn(Opcodes.INVOKESTATIC, DISPATCHER, "exit", EXIT_DESCRIPTOR, false);
        super.visitInsn(opcode);
        rangeStart = new Label();
        super.visitLabel(rangeStart);
    }

    /** A frame the weaver adds, whole: F_NEW among expanded frames, F_FULL among compressed ones. */
    private void fullFrame(Object[] locals, int numStack, Object[] stack) {
        super.visitFrame(expandedFrames ? Opcodes.F_NEW : Opcodes.F_FULL, locals.length, locals, numStack, stack);
    }

    /**
     * An original frame, with the woven locals appended. A compressed same frame (F_SAME, F_SAME1) stays as it is:
     * the frame before it in the woven method (the original one before it, woven, or the frame at {@code body} for the
     * first) holds the same original locals with the same woven ones appended. A delta (F_APPEND, F_CHOP) cannot stay
     * one, as the woven locals sit above the ones it adds or removes: it becomes a full frame.
     */
    @Override
    public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
        if ((type == Opcodes.F_NEW) != expandedFrames) {
            throw new IllegalStateException("frame type " + type + " where the frames are " + (expandedFrames ? "" : "not ") + "expanded");
        }
        switch (type) {
            case Opcodes.F_SAME:
            case Opcodes.F_SAME1:
                super.visitFrame(type, numLocal, local, numStack, stack);
                return;
            case Opcodes.F_NEW:
                fullFrame(WovenFrames.withToken(numLocal, local, tokenSlot), numStack, stack);
                return;
            case Opcodes.F_FULL:
                // A copy: ASM's reader fills the same array for each frame it reads.
                frameLocals = java.util.Arrays.copyOf(local, numLocal);
                frameLocalCount = numLocal;
                break;
            case Opcodes.F_APPEND:
                Object[] appended = java.util.Arrays.copyOf(frameLocals, frameLocalCount + numLocal);
                System.arraycopy(local, 0, appended, frameLocalCount, numLocal);
                frameLocals = appended;
                frameLocalCount += numLocal;
                break;
            case Opcodes.F_CHOP:
                if (numLocal > frameLocalCount) {
                    throw new IllegalStateException("a frame chops " + numLocal + " of " + frameLocalCount + " locals");
                }
                frameLocalCount -= numLocal;
                break;
            default:
                throw new IllegalStateException("unknown frame type " + type);
        }
        fullFrame(WovenFrames.withToken(frameLocalCount, frameLocals, tokenSlot), numStack, stack);
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
        code();
        super.visitIntInsn(opcode, operand);
    }

    @Override
    public void visitVarInsn(int opcode, int varIndex) {
        code();
        super.visitVarInsn(opcode, varIndex);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        code();
        super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        code();
        super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        code();
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
        code();
        super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
        code();
        super.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitLdcInsn(Object value) {
        code();
        super.visitLdcInsn(value);
    }

    @Override
    public void visitIincInsn(int varIndex, int increment) {
        code();
        super.visitIincInsn(varIndex, increment);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
        code();
        super.visitTableSwitchInsn(min, max, dflt, labels);
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
        code();
        super.visitLookupSwitchInsn(dflt, keys, labels);
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
        code();
        super.visitMultiANewArrayInsn(descriptor, numDimensions);
    }

    /**
     * After the original code: the handlers (the entry's, then the body's) and the sizes. The body's handler is
     * registered here, after the method's own, so that they catch first; its ranges leave the exits out, so that
     * a failing exit is not reported twice.
     */
    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        if (thrownSlot + 1 > 0xFFFF || maxStack + EXTRA_STACK > 0xFFFF) {
            // The class file's u2 sizes would wrap: the class keeps its original bytes (Byte Buddy reports it).
            throw new IllegalStateException("max_locals " + maxLocals + " or max_stack " + maxStack + " leave no room for the woven locals");
        }
        if (maxLocals != tokenSlot) {
            // The skim and ASM disagree: weaving on would overwrite a local of the method. Byte Buddy reports the
            // class as not transformed, and it keeps its original bytes.
            throw new IllegalStateException("max_locals " + maxLocals + " where the class file's skim read " + tokenSlot);
        }
        closeRange();
        super.visitTryCatchBlock(entryStart, entryEnd, entryHandler, THROWABLE);
        for (int i = 0; i < covered.size(); i += 2) {
            super.visitTryCatchBlock(covered.get(i), covered.get(i + 1), bodyHandler, THROWABLE);
        }

        super.visitLabel(entryHandler);
        fullFrame(initialLocals, 1, new Object[] {THROWABLE});
        super.visitInsn(Opcodes.POP);
        super.visitInsn(Opcodes.LCONST_0);
        super.visitVarInsn(Opcodes.LSTORE, tokenSlot);
        super.visitJumpInsn(Opcodes.GOTO, body);

        // The body's handler reports what the method throws and rethrows it. Its exit call has a handler of its own,
        // which rethrows the method's throwable: a failure of the call itself (a StackOverflowError at the edge of the
        // stack, where a propagating one passes) must not replace the application's exception.
        Label exitStart = new Label();
        Label exitEnd = new Label();
        Label exitFailed = new Label();
        super.visitTryCatchBlock(exitStart, exitEnd, exitFailed, THROWABLE);
        super.visitLabel(bodyHandler);
        Object[] locals = WovenFrames.withToken(0, new Object[0], tokenSlot);
        fullFrame(locals, 1, new Object[] {THROWABLE});
        super.visitVarInsn(Opcodes.ASTORE, thrownSlot);
        super.visitLabel(exitStart);
        pushMethodId();
        super.visitVarInsn(Opcodes.LLOAD, tokenSlot);
        super.visitVarInsn(Opcodes.ALOAD, thrownSlot);
        super.visitMethodInsn(Opcodes.INVOKESTATIC, DISPATCHER, "exit", EXIT_DESCRIPTOR, false);
        super.visitLabel(exitEnd);
        super.visitVarInsn(Opcodes.ALOAD, thrownSlot);
        super.visitInsn(Opcodes.ATHROW);

        super.visitLabel(exitFailed);
        Object[] withThrown = java.util.Arrays.copyOf(locals, locals.length + 1);
        withThrown[locals.length] = THROWABLE;
        fullFrame(withThrown, 1, new Object[] {THROWABLE});
        super.visitInsn(Opcodes.POP);
        super.visitVarInsn(Opcodes.ALOAD, thrownSlot);
        super.visitInsn(Opcodes.ATHROW);

        super.visitMaxs(maxStack + EXTRA_STACK, thrownSlot + 1);
    }
}
