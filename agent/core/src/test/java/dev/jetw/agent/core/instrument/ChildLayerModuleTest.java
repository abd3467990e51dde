package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.AgentHarness;
import dev.jetw.agent.core.methods.MethodRegistry;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Classes of an explicit module in a child {@code ModuleLayer}, which the boot layer's packages do not name: the direct
 * path weaves them (a class loaded before the attach, by the ramp's retransformation; one loaded after it, at its load)
 * with an invokedynamic naming bootstrap classes on the boot class path, which such a module does not read. A review
 * expected IllegalAccessError at the first call; the JVM adds the edge itself (HotSpot, since JDK 9: a module whose
 * class an agent transformed is made to read the unnamed modules of the boot and application loaders,
 * jdk.internal.module.Modules.transformedByAgent). This test holds the direct path to that: should a JVM not add the
 * edge, the woven calls fail here. The module is compiled here (Java 9+, as the rest of these tests; skipped with the
 * reason when no compiler is at hand).
 */
class ChildLayerModuleTest {

    @TempDir
    Path dir;

    @Test
    void classesOfAnExplicitModuleInAChildLayerAreWovenDirectlyAndCalledWithoutError() throws Exception {
        ClassLoader layerLoader = childLayerLoader();
        Class<?> work = layerLoader.loadClass("jetwtest.child.Work");
        assertTrue(work.getModule().isNamed());
        assertFalse(work.getModule().canRead(dev.jetw.bootstrap.Dispatcher.class.getModule()), "reads no unnamed module");
        assertFalse(new ModuleAwareCall().isInNamedModule(layerLoader, "jetwtest/child/Work"), "not a boot-layer module: the direct path's");
        Method sum = work.getMethod("sum", int.class);
        assertEquals(45, sum.invoke(null, 10));

        SessionlessInstrumenter attach = new SessionlessInstrumenter(AgentHarness.inst(), "include=jetwtest.child.**");
        Instrumenter instrumenter = attach.instrumenter;
        MethodRegistry registry = attach.registry;
        AttachRamp ramp = attach.ramp();
        try {
            instrumenter.install(ramp); // the ramp's passes, on this thread; the direct path takes the loads from now on

            assertFalse(ramp.status().contains(" failed ("), ramp.status()); // Work, and the API class if loaded
            assertTrue(registry.idOf(work.getName(), "sum", "(I)I") != 0, "Work.sum is woven");
            assertTrue(work.getModule().canRead(dev.jetw.bootstrap.Dispatcher.class.getModule()), "the JVM added the read edge");
            assertEquals(45, sum.invoke(null, 10), "the woven method links and runs");

            Class<?> later = Class.forName("jetwtest.child.Later", true, layerLoader);
            assertTrue(registry.idOf(later.getName(), "sum", "(I)I") != 0, "Later.sum is woven at its load");
            assertEquals(45, later.getMethod("sum", int.class).invoke(null, 10), "the method woven at load links and runs");
        } finally {
            assertTrue(instrumenter.reset());
        }
        assertEquals(45, sum.invoke(null, 10), "and after the reset");
    }

    /** The loader of module jetwtest.child (exported, reads only java.base; classes Work and Later), in a layer of its own. */
    private ClassLoader childLayerLoader() throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Assumptions.assumeTrue(javac != null, "no Java compiler in this JVM (a JRE): the child layer's module cannot be built");
        Path src = dir.resolve("src");
        Path out = dir.resolve("mods/jetwtest.child");
        Files.createDirectories(src.resolve("jetwtest/child"));
        Files.createDirectories(out);
        Files.write(src.resolve("module-info.java"), "module jetwtest.child { exports jetwtest.child; }".getBytes());
        for (String name : new String[] {"Work", "Later"}) {
            Files.write(src.resolve("jetwtest/child/" + name + ".java"), ("package jetwtest.child;\n"
                    + "public class " + name + " {\n"
                    + "    public static int sum(int n) {\n"
                    + "        int s = 0;\n"
                    + "        for (int i = 0; i < n; i++) { s += i; }\n"
                    + "        return s;\n"
                    + "    }\n"
                    + "}\n").getBytes());
        }
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = javac.run(null, null, errors, "-d", out.toString(), src.resolve("module-info.java").toString(),
                src.resolve("jetwtest/child/Work.java").toString(), src.resolve("jetwtest/child/Later.java").toString());
        assertEquals(0, rc, errors.toString());

        ModuleLayer parent = ModuleLayer.boot();
        Configuration cf = parent.configuration().resolve(ModuleFinder.of(dir.resolve("mods")), ModuleFinder.of(),
                Set.of("jetwtest.child"));
        ModuleLayer layer = parent.defineModulesWithOneLoader(cf, ClassLoader.getSystemClassLoader());
        return layer.findLoader("jetwtest.child");
    }
}
