package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.methods.MethodRegistry;
import dev.jetw.agent.core.methods.Selection;
import dev.jetw.agent.core.options.AgentOptions;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;

import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Weaves class files as the agent's transformer does, outside a JVM transformation: the options' selection and a
 * method registry, Byte Buddy decorating the class (as the agent's {@code TypeStrategy.Default.DECORATE}), the
 * {@link LinkedCallWeaver} with the class file's {@link OriginalMaxLocals}.
 */
final class TestWeaving {

    final Selection selection;
    final MethodRegistry registry;
    private final TypePool pool;
    private final ClassFileLocator locator;
    /** Between the weaver's visitor and the class writer (a test that breaks what the weaver writes), or null. */
    private final UnaryOperator<net.bytebuddy.jar.asm.MethodVisitor> below;

    /** What a chosen method's selection does, or null: registered at once, with no trivial method left out. */
    private final DirectWeaving.Admission admission;
    private boolean expandFrames;

    TestWeaving(String options, ClassFileLocator locator, UnaryOperator<net.bytebuddy.jar.asm.MethodVisitor> below) {
        this(options, locator, below, false);
    }

    /**
     * {@code expandFrames}: another wrapper on the class asks ASM's reader for expanded frames, as one may on Byte
     * Buddy's path; the weaver then takes and writes them expanded.
     */
    TestWeaving(String options, ClassFileLocator locator, UnaryOperator<net.bytebuddy.jar.asm.MethodVisitor> below, boolean expandFrames) {
        this(new Selection(AgentOptions.parse(options)), new MethodRegistry(1_000_000, AgentOptions.parse(options).rules), null, locator, below);
        this.expandFrames = expandFrames;
    }

    /** Byte Buddy's path with the admission {@code admission} (registration, trivial methods), as the agent's selector. */
    TestWeaving(Selection selection, MethodRegistry registry, DirectWeaving.Admission admission, ClassFileLocator locator,
                UnaryOperator<net.bytebuddy.jar.asm.MethodVisitor> below) {
        this.selection = selection;
        this.registry = registry;
        this.admission = admission;
        this.locator = locator;
        this.pool = TypePool.Default.of(locator);
        this.below = below;
    }

    /** The woven class file of {@code typeName}, its methods selected and registered as the agent's selector does. */
    byte[] weave(String typeName, byte[] classFile) {
        TypeDescription type = pool.describe(typeName).resolve();
        Map<String, Integer> maxLocals = OriginalMaxLocals.of(classFile);
        LinkedCallWeaver weaver = new LinkedCallWeaver(registry,
                (t, m) -> t.equals(typeName) && maxLocals.containsKey(m) ? maxLocals.get(m) : -1);
        DirectWeaving.TrivialScan trivial = () -> TrivialMethods.of(classFile);
        ElementMatcher<MethodDescription> selected = m -> {
            long choice = selection.choose(type, m);
            if (admission != null) {
                return choice >= 0 && admission.idToWeave(type.getName(), m.getInternalName(), m.getDescriptor(), choice, trivial) != 0;
            }
            return choice >= 0 && registry.register(type.getName(), m.getInternalName(), m.getDescriptor(),
                    Selection.levelOf(choice), selection.thresholdNanos(choice), Selection.groupOf(choice)) != 0;
        };
        AsmVisitorWrapper wrapper = weaver.on(selected);
        if (below != null) {
            wrapper = new AsmVisitorWrapper.ForDeclaredMethods()
                    .invokable(selected, (t, m, mv, ctx, p, wf, rf) -> weaver.wrap(t, m, below.apply(mv), ctx, p, wf, rf));
        }
        if (expandFrames) {
            wrapper = new AsmVisitorWrapper.Compound(wrapper,
                    new AsmVisitorWrapper.ForDeclaredMethods().readerFlags(net.bytebuddy.jar.asm.ClassReader.EXPAND_FRAMES));
        }
        return new ByteBuddy().with(TypeValidation.DISABLED).with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE)
                .decorate(type, new ClassFileLocator.Compound(ClassFileLocator.Simple.of(typeName, classFile), locator))
                .visit(wrapper)
                .make()
                .getBytes();
    }

    /** Whether the agent's ignore matcher lets Byte Buddy's path look at the class at all ({@link Selection#matchesType}). */
    boolean matchesType(String typeName) {
        return selection.matchesType(pool.describe(typeName).resolve(), TestWeaving.class.getClassLoader());
    }

    /** The id {@code method} (name + descriptor) of {@code typeName} was woven with, 0 if none. */
    int idOf(String typeName, String name, String descriptor) {
        return registry.idOf(typeName, name, descriptor);
    }
}
