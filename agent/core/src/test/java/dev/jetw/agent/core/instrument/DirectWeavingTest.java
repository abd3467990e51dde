package dev.jetw.agent.core.instrument;

import dev.jetw.shapes.Shapes;
import dev.jetw.agent.core.methods.MethodRegistry;
import dev.jetw.agent.core.methods.Selection;
import dev.jetw.agent.core.options.AgentOptions;
import dev.jetw.bootstrap.Dispatcher;
import net.bytebuddy.dynamic.ClassFileLocator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The direct path ({@link DirectWeaving}) selects exactly the methods Byte Buddy's path selects, with the same ids,
 * levels, budget groups and trivial methods left out, on classes of awkward shapes ({@link Shapes}) under options
 * that select by name, by annotation, with excludes and with {@code trivial=}; and what it weaves is defined and
 * verified by the JVM. (The same comparison over every class of H2 and Jackson is in {@link LibraryWeavingTest}.)
 */
class DirectWeavingTest {

    private static final String SHAPES = "dev.jetw.shapes.";
    private static final Class<?>[] CLASSES = {
        Shapes.Plain.class, Shapes.Base.class, Shapes.Concrete.class, Shapes.WithDefault.class, Shapes.Annotated.class,
        Shapes.TracedClass.class, Shapes.TimedClass.class, Shapes.MarkedClass.class, Shapes.Timed.class, Shapes.class,
    };

    @ParameterizedTest
    @ValueSource(strings = {
        "include=" + SHAPES + "**",
        "include=" + SHAPES + "**,trivial=trace",
        "include=" + SHAPES + "**@verbose;" + SHAPES + "Shapes$Plain#sum@2,exclude=" + SHAPES + "Shapes$Plain#skipped",
        "annotation=" + SHAPES + "Shapes$Timed@4;" + SHAPES + "Shapes$Marked",
        "include=" + SHAPES + "Shapes$Annotated;" + SHAPES + "Shapes$TracedClass,annotation=" + SHAPES + "Shapes$Timed@1",
        "level=2",
        "include=" + SHAPES + "**,maxMethods=3",
    })
    void selectsWhatByteBuddysPathSelects(String options) throws IOException {
        Direct direct = new Direct(options);
        Direct other = new Direct(options);
        TestWeaving byteBuddy = other.byteBuddy(ClassFileLocator.ForClassLoader.ofSystemLoader());
        for (Class<?> c : CLASSES) {
            byte[] classFile = classFile(c);
            if (byteBuddy.matchesType(c.getName())) {
                byteBuddy.weave(c.getName(), classFile);
            }
            byte[] woven = direct.weave(c.getName(), classFile);
            if (woven != null) {
                assertNotNull(new Verified().define(c.getName(), woven));
            }
        }
        assertEquals(selected(byteBuddy.registry), selected(direct.registry), options);
        if (options.contains("maxMethods=3")) {
            assertTrue(selected(direct.registry).stream().anyMatch(r -> r.endsWith(" evicted")), "the tiny budget evicts: " + selected(direct.registry));
        }
        assertEquals(byteBuddy.registry.trivialLeftOut(), direct.registry.trivialLeftOut(), options);
    }

    @ParameterizedTest
    @ValueSource(strings = {"include=" + SHAPES + "Shapes$WithDefault", "include=" + SHAPES + "Shapes$Timed"})
    void interfacesAndAnnotationsAreLeftAsTheyAre(String options) throws IOException {
        Direct direct = new Direct(options);
        Class<?> c = options.endsWith("Timed") ? Shapes.Timed.class : Shapes.WithDefault.class;
        assertNull(direct.weave(c.getName(), classFile(c)));
        assertEquals(0, direct.registry.idCount());
    }

    @ParameterizedTest
    @ValueSource(strings = {"include=" + SHAPES + "**"})
    void anUnreadableClassFileThrowsForTheCallerToCount(String options) {
        Direct direct = new Direct(options);
        long before = Dispatcher.internalErrors();
        boolean threw = false;
        try {
            direct.weave(SHAPES + "Truncated", new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0, 0, 52, 0, 9});
        } catch (RuntimeException e) {
            threw = true;
        }
        assertTrue(threw, "a truncated class file is refused, not woven");
        assertEquals(before, Dispatcher.internalErrors());
    }

    /** The direct path with the admission Byte Buddy's test weaving uses (registration, trivial methods left out). */
    static final class Direct {
        final Selection selection;
        final MethodRegistry registry;
        private final SelectableClasses selectable;
        private final DirectWeaving.Admission admission;

        Direct(String options) {
            AgentOptions o = AgentOptions.parse(options);
            selection = new Selection(o);
            registry = new MethodRegistry(o.maxMethods, o.rules); // maxMethods=3: the budget evicts, on both paths
            selectable = new SelectableClasses(selection);
            admission = (className, methodName, descriptor, choice, trivial) -> {
                if (selection.skipsTrivial(choice) && trivial.trivialMethods().contains(methodName + descriptor)) {
                    registry.leaveOutTrivial(className, methodName, descriptor, Selection.groupOf(choice));
                    return 0;
                }
                return registry.register(className, methodName, descriptor, Selection.levelOf(choice),
                        selection.thresholdNanos(choice), Selection.groupOf(choice));
            };
        }

        /** Byte Buddy's path with the same options and admission, into a registry of its own. */
        TestWeaving byteBuddy(ClassFileLocator locator) {
            return new TestWeaving(selection, registry, admission, locator, null);
        }

        /** As the first-match transformer hands it over: a class its name does not reject. */
        byte[] weave(String name, byte[] classFile) {
            if (selection.rejectsByName(name, DirectWeavingTest.class.getClassLoader())) {
                return null;
            }
            return DirectWeaving.weave(classFile, selectable.holdsAnyAnnotation(classFile), selection, admission, registry);
        }
    }

    /** Every registered method with its id, level and budget state, in id order. */
    static List<String> selected(MethodRegistry registry) {
        List<String> rows = new ArrayList<>();
        for (int id = 1; id <= registry.idCount(); id++) {
            MethodRegistry.Entry e = registry.entry(id);
            rows.add(id + " " + e.className + "." + e.methodName + e.descriptor + " level " + registry.levels[id]
                    + (registry.isEvicted(id) ? " evicted" : ""));
        }
        return rows;
    }

    static byte[] classFile(Class<?> c) throws IOException {
        try (InputStream in = c.getClassLoader().getResourceAsStream(c.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    /** Defines one woven class in a loader of its own, its other names from the test's loader, and links it (verifies it). */
    static final class Verified extends ClassLoader {
        Verified() {
            super(DirectWeavingTest.class.getClassLoader());
        }

        Class<?> define(String name, byte[] classFile) {
            Class<?> c = defineClass(name, classFile, 0, classFile.length);
            c.getDeclaredMethods(); // links, so verifies
            return c;
        }
    }
}
