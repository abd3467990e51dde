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
 * are appended, and every original stack-map frame gets them appended too. Needs the frames expanded
 * ({@code ClassReader.EXPAND_FRAMES}) and writes every frame it adds in full.
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

    private final Label entryStart = new Label();
    private final Label entryEnd = new Label();
    private final Label entryHandler = new Label();
    private final Label body = new Label();
    private final Label bodyHandler = new Label();
    /** The original code, cut at each return site: start, end, start, end... (the exits are not covered). */
    private final List<Label> covered = new ArrayList<>();
    private Label rangeStart;
    private boolean rangeHasCode;
    private boolean begun;

    LinkedCallVisitor(MethodVisitor delegate, int methodId, int tokenSlot, Object[] initialLocals) {
        super(OpenedClassReader.ASM_API, delegate);
        this.methodId = methodId;
        this.tokenSlot = tokenSlot;
        this.thrownSlot = tokenSlot + 2;
        this.initialLocals = initialLocals;
    }

    /**
     * The entry, at the first visit after the method's own exception table (ASM visits that right after
     * visitCode), so that the method's handlers stay ahead of the woven ones. A linkage failure of the
     * invokedynamic (e.g. a StackOverflowError in its bootstrap) is caught and the method runs untraced, token 0.
     * The nop keeps the frame at {@code body} off the offset of an original frame at the first instruction.
     */
    private void begin() {
        if (begun) {
            return;
        }
        begun = true;
        super.visitTryCatchBlock(entryStart, entryEnd, entryHandler, THROWABLE);
        super.visitLabel(entryStart);
        super.visitInvokeDynamicInsn("enter", "()J", LINK, methodId);
        super.visitLabel(entryEnd);
        super.visitVarInsn(Opcodes.LSTORE, tokenSlot);
        super.visitLabel(body);
        Object[] locals = WovenFrames.withToken(initialLocals.length, initialLocals, tokenSlot);
        super.visitFrame(Opcodes.F_NEW, locals.length, locals, 0, new Object[0]);
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
        begin();
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
        begin();
        closeRange();
        pushMethodId();
        super.visitVarInsn(Opcodes.LLOAD, tokenSlot);
        super.visitInsn(Opcodes.ACONST_NULL);
        super.visitMethodInsn(Opcodes.INVOKESTATIC, DISPATCHER, "exit", EXIT_DESCRIPTOR, false);
        super.visitInsn(opcode);
        rangeStart = new Label();
        super.visitLabel(rangeStart);
    }

    @Override
    public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
        begin();
        if (type != Opcodes.F_NEW) {
            throw new IllegalStateException("frames must be expanded (ClassReader.EXPAND_FRAMES), got type " + type);
        }
        Object[] locals = WovenFrames.withToken(numLocal, local, tokenSlot);
        super.visitFrame(Opcodes.F_NEW, locals.length, locals, numStack, stack);
    }

    @Override
    public void visitLabel(Label label) {
        begin();
        super.visitLabel(label);
    }

    @Override
    public void visitLineNumber(int line, Label start) {
        begin();
        super.visitLineNumber(line, start);
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
        begin();
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
        for (int i = 0; i < covered.size(); i += 2) {
            super.visitTryCatchBlock(covered.get(i), covered.get(i + 1), bodyHandler, THROWABLE);
        }

        super.visitLabel(entryHandler);
        super.visitFrame(Opcodes.F_NEW, initialLocals.length, initialLocals, 1, new Object[] {THROWABLE});
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
        super.visitFrame(Opcodes.F_NEW, locals.length, locals, 1, new Object[] {THROWABLE});
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
        super.visitFrame(Opcodes.F_NEW, withThrown.length, withThrown, 1, new Object[] {THROWABLE});
        super.visitInsn(Opcodes.POP);
        super.visitVarInsn(Opcodes.ALOAD, thrownSlot);
        super.visitInsn(Opcodes.ATHROW);

        super.visitMaxs(maxStack + EXTRA_STACK, thrownSlot + 1);
    }
}
