package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.methods.Selection;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.JavaModule;

/**
 * How Byte Buddy describes a class to the agent's matchers and advice. A class the options may select is
 * described from its class file (for a retransformation, the bytes the JVM hands over), never by
 * reflection: reflection loads the classes its members name, inside the transformation, where Byte Buddy's
 * circularity lock leaves them uninstrumented for good (such a class, named only in a signature of a class
 * the remover retransformed, was never traced). A loaded class rejected by its name alone (the JDK's, the
 * agent's) keeps the lazy reflective description, which is never asked more than its name: describing every
 * loaded class from its class file, as Byte Buddy's POOL_FIRST does, cost 230 ms of a 540 ms premain with no
 * class of the application selected.
 */
final class ClassDescriptions implements AgentBuilder.DescriptionStrategy {

    /**
     * A load Byte Buddy's registered transformer is handed while {@link FirstMatchTransformer} routes loads (it
     * handed this load over already, or it turned the class away): described by a name the agent never
     * instruments, so that the ignore matcher drops it before any class file is parsed.
     */
    private static final TypeDescription ROUTED_ELSEWHERE = TypeDescription.ForLoadedType.of(ClassDescriptions.class);

    private final Selection selection;
    /** True when class loads come through {@link FirstMatchTransformer} (premain), not from the JVM directly. */
    private final boolean loadsRouted;

    ClassDescriptions(Selection selection, boolean loadsRouted) {
        this.selection = selection;
        this.loadsRouted = loadsRouted;
    }

    @Override
    public boolean isLoadedFirst() {
        return false;
    }

    @Override
    public TypeDescription apply(String name, Class<?> type, TypePool typePool, AgentBuilder.CircularityLock circularityLock,
                                 ClassLoader classLoader, JavaModule module) {
        if (type == null && loadsRouted && !FirstMatchTransformer.isForwarding()) {
            return ROUTED_ELSEWHERE;
        }
        if (type != null && selection.rejectsByName(name, classLoader) && !name.equals(Selection.API_CLASS)) {
            return TypeDescription.ForLoadedType.of(type);
        }
        return Default.POOL_FIRST.apply(name, type, typePool, circularityLock, classLoader, module);
    }
}
