package dev.jetw.agent.core.instrument;

import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;

import java.util.Collections;
import java.util.Map;
import java.util.Set;

/**
 * Byte Buddy's pool strategy, remembering on the transforming thread which class file is being
 * transformed (Byte Buddy asks for a type pool once per class, with a locator that holds the bytes the JVM
 * gave the transformer), so that the method selector can ask for the class's {@link TrivialMethods} and the
 * {@link LinkedCallWeaver} for its methods' {@link OriginalMaxLocals}.
 * Each scan runs only when asked, once per transformation: most classes the JVM loads are rejected by name
 * and never scanned. {@link #done} forgets the class at the end of its transformation.
 */
final class TransformedClassFiles implements AgentBuilder.PoolStrategy, LinkedCallWeaver.MaxLocals {

    /** The class being transformed on this thread, and what was read from its class file so far. */
    private static final class Current {
        final String typeName;
        final ClassFileLocator locator;
        byte[] classFile;
        Set<String> trivial;
        Map<String, Integer> maxLocals;

        Current(String typeName, ClassFileLocator locator) {
            this.typeName = typeName;
            this.locator = locator;
        }
    }

    private final AgentBuilder.PoolStrategy delegate;
    private final ThreadLocal<Current> current = new ThreadLocal<>();

    TransformedClassFiles(AgentBuilder.PoolStrategy delegate) {
        this.delegate = delegate;
    }

    @Override
    public TypePool typePool(ClassFileLocator classFileLocator, ClassLoader classLoader) {
        return delegate.typePool(classFileLocator, classLoader);
    }

    @Override
    public TypePool typePool(ClassFileLocator classFileLocator, ClassLoader classLoader, String name) {
        current.set(new Current(name, classFileLocator));
        return delegate.typePool(classFileLocator, classLoader, name);
    }

    /**
     * The trivial methods (name + descriptor) of {@code typeName} if it is the class being transformed on
     * this thread; empty otherwise or when its bytes cannot be read, so that nothing is skipped by mistake.
     */
    Set<String> trivialMethods(String typeName) {
        Current c = current.get();
        if (c == null || !c.typeName.equals(typeName)) {
            return Collections.emptySet();
        }
        if (c.trivial == null) {
            byte[] classFile = classFile(c);
            c.trivial = classFile == null ? Collections.<String>emptySet() : TrivialMethods.of(classFile);
        }
        return c.trivial;
    }

    /** {@code method}'s max_locals in the class file being transformed on this thread, or -1 when it cannot be read. */
    @Override
    public int maxLocals(String typeName, String method) {
        Current c = current.get();
        if (c == null || !c.typeName.equals(typeName)) {
            return -1;
        }
        if (c.maxLocals == null) {
            byte[] classFile = classFile(c);
            c.maxLocals = classFile == null ? Collections.<String, Integer>emptyMap() : OriginalMaxLocals.of(classFile);
        }
        Integer maxLocals = c.maxLocals.get(method);
        return maxLocals == null ? -1 : maxLocals;
    }

    /** The bytes being transformed (the locator holds them first), read once; null when they cannot be read. */
    private static byte[] classFile(Current c) {
        if (c.classFile == null) {
            try {
                ClassFileLocator.Resolution r = c.locator.locate(c.typeName);
                c.classFile = r.isResolved() ? r.resolve() : new byte[0];
            } catch (java.io.IOException | RuntimeException e) {
                c.classFile = new byte[0];
            }
        }
        return c.classFile.length == 0 ? null : c.classFile;
    }

    /** The transformation of this thread's class is over. */
    void done() {
        current.remove();
    }
}
