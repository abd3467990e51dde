package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.methods.MethodRegistry;
import dev.jetw.bootstrap.Dispatcher;
import dev.jetw.bootstrap.MethodEntries;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;

/**
 * Puts the linked call advice into the selected methods of class files of Java 7 and later, in place of Byte
 * Buddy's {@code Advice} (which re-read and copied the advice class's code and recomputed its frames for every
 * method: most of a short job's time under a whole-library include, BENCHMARKS.md §15 and §17): a
 * {@link LinkedCallVisitor} per method, with the method's id and its original max_locals (docs/weaving.md).
 * Constructors are never selected: the uninitialized {@code this} before the super constructor's call cannot be
 * covered by one handler.
 */
final class LinkedCallWeaver implements AsmVisitorWrapper.ForDeclaredMethods.MethodVisitorWrapper {

    /** Where the weaver reads a method's original max_locals. */
    interface MaxLocals {
        /** {@code method}'s (name + descriptor) max_locals in {@code typeName}'s class file being transformed, or -1. */
        int maxLocals(String typeName, String method);
    }

    private final MethodRegistry registry;
    private final MaxLocals maxLocals;

    LinkedCallWeaver(MethodRegistry registry, MaxLocals maxLocals) {
        this.registry = registry;
        this.maxLocals = maxLocals;
    }

    /**
     * The weaving of the methods {@code selected} picks out of the class being transformed. It asks for no reader
     * flag: the frames come as the class file has them, the cheap form for ASM's writer, unless another wrapper on
     * the same class asks for them expanded ({@link #wrap} reads which).
     */
    AsmVisitorWrapper on(ElementMatcher<? super MethodDescription> selected) {
        return new AsmVisitorWrapper.ForDeclaredMethods().invokable(selected, this);
    }

    @Override
    public MethodVisitor wrap(TypeDescription type, MethodDescription method, MethodVisitor methodVisitor,
                              Implementation.Context implementationContext, TypePool typePool, int writerFlags, int readerFlags) {
        if (!method.isMethod() || method.isAbstract() || method.isNative()) {
            throw new IllegalArgumentException("only methods with code are woven, not " + method);
        }
        int slot = maxLocals.maxLocals(type.getName(), method.getInternalName() + method.getDescriptor());
        int id = registry.idOf(type.getName(), method.getInternalName(), method.getDescriptor());
        return weave(registry, methodVisitor, type.getInternalName(), method.isStatic(), method.getInternalName(),
                method.getDescriptor(), id, slot, (readerFlags & ClassReader.EXPAND_FRAMES) != 0);
    }

    /**
     * The weaving of one method with code, for both paths (this wrapper in Byte Buddy's, {@link DirectWeaving}'s own
     * reader): {@code id} its registered id, {@code maxLocals} its original max_locals. Without either the method is
     * left as it is and the failure counted. {@code expandedFrames}: the reader expands the frames
     * ({@code ClassReader.EXPAND_FRAMES}).
     */
    static MethodVisitor weave(MethodRegistry registry, MethodVisitor methodVisitor, String ownerInternalName, boolean isStatic,
                               String name, String descriptor, int id, int maxLocals, boolean expandedFrames) {
        if (maxLocals < 0 || id == 0) {
            Dispatcher.failed(new IllegalStateException("not woven (max_locals " + maxLocals + ", id " + id + "): "
                    + ownerInternalName.replace('/', '.') + "." + name + descriptor));
            return methodVisitor;
        }
        if (id < MethodEntries.MUTABLE_IDS) {
            registry.markLinked(id); // a higher id cannot be muted: the remover still takes its advice out
        }
        return new LinkedCallVisitor(methodVisitor, id, maxLocals, WovenFrames.initialLocals(ownerInternalName, isStatic, descriptor),
                expandedFrames);
    }
}
