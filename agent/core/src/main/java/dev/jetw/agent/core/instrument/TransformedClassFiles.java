package dev.jetw.agent.core.instrument;

import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;

import java.util.Collections;
import java.util.Set;

/**
 * Byte Buddy's pool strategy, remembering on the transforming thread which class file is being
 * transformed (Byte Buddy asks for a type pool once per class, with a locator that holds the bytes the JVM
 * gave the transformer), so that the method selector can ask for the class's {@link TrivialMethods}.
 * The scan runs only when asked, once per transformation: most classes the JVM loads are rejected by name
 * and never scanned. {@link #done} forgets the class at the end of its transformation.
 */
final class TransformedClassFiles implements AgentBuilder.PoolStrategy {

    /** The class being transformed on this thread, and its trivial methods once scanned. */
    private static final class Current {
        final String typeName;
        final ClassFileLocator locator;
        Set<String> trivial;

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
            try {
                ClassFileLocator.Resolution r = c.locator.locate(typeName);
                c.trivial = r.isResolved() ? TrivialMethods.of(r.resolve()) : Collections.<String>emptySet();
            } catch (java.io.IOException | RuntimeException e) {
                c.trivial = Collections.emptySet();
            }
        }
        return c.trivial;
    }

    /** The transformation of this thread's class is over. */
    void done() {
        current.remove();
    }
}
