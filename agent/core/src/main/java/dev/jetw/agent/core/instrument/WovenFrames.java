package dev.jetw.agent.core.instrument;

import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * The stack-map frames' locals of a woven method (JVMS 4.10.1.2), in ASM's expanded form, where a long or a
 * double is one entry that stands for two slots.
 */
final class WovenFrames {

    private WovenFrames() {
    }

    /** The locals at a method's first instruction: {@code this} (unless static), then the parameters. */
    static Object[] initialLocals(String ownerInternalName, boolean isStatic, String descriptor) {
        Type[] parameters = Type.getArgumentTypes(descriptor);
        Object[] locals = new Object[parameters.length + (isStatic ? 0 : 1)];
        int i = 0;
        if (!isStatic) {
            locals[i++] = ownerInternalName;
        }
        for (Type p : parameters) {
            locals[i++] = verificationType(p);
        }
        return locals;
    }

    private static Object verificationType(Type type) {
        switch (type.getSort()) {
            case Type.BOOLEAN:
            case Type.BYTE:
            case Type.CHAR:
            case Type.SHORT:
            case Type.INT:
                return Opcodes.INTEGER;
            case Type.FLOAT:
                return Opcodes.FLOAT;
            case Type.LONG:
                return Opcodes.LONG;
            case Type.DOUBLE:
                return Opcodes.DOUBLE;
            case Type.ARRAY:
                return type.getDescriptor();
            default:
                return type.getInternalName();
        }
    }

    /**
     * {@code local}'s first {@code count} entries, filled with TOP up to {@code tokenSlot} and the token's LONG
     * after them: the original locals stay where they are, and the token is in every frame of the method.
     */
    static Object[] withToken(int count, Object[] local, int tokenSlot) {
        int slots = 0;
        for (int i = 0; i < count; i++) {
            slots += local[i] == Opcodes.LONG || local[i] == Opcodes.DOUBLE ? 2 : 1;
        }
        if (slots > tokenSlot) {
            throw new IllegalStateException("a frame holds " + slots + " local slots, above max_locals " + tokenSlot);
        }
        Object[] locals = new Object[count + tokenSlot - slots + 1];
        System.arraycopy(local, 0, locals, 0, count);
        for (int i = count; i < locals.length - 1; i++) {
            locals[i] = Opcodes.TOP;
        }
        locals[locals.length - 1] = Opcodes.LONG;
        return locals;
    }
}
