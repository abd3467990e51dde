package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.methods.Selection;
import dev.jetw.agent.core.options.AgentOptions;
import org.junit.jupiter.api.Test;
import testapp.Annotated;
import testapp.Levels;
import testapp.Timed;
import testapp.Tiny;

import java.io.IOException;
import java.io.InputStream;
import java.io.ByteArrayOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The start-up transformer's test: a yes for every class the options could select, told without Byte Buddy. */
class SelectableClassesTest {

    private static final ClassLoader APP = SelectableClassesTest.class.getClassLoader();

    private static SelectableClasses of(String options) {
        return new SelectableClasses(new Selection(AgentOptions.parse(options)));
    }

    @Test
    void includeRulesSelectByName() {
        SelectableClasses s = of("include=com.acme.**");
        assertTrue(s.mayBeSelected("com/acme/shop/Cart", APP, new byte[0]));
        assertFalse(s.mayBeSelected("org/other/Cart", APP, new byte[0]));
    }

    @Test
    void theAgentsAndTheJdksClassesAreNeverSelectedUnlessNamedWithBootstrap() {
        SelectableClasses s = of("include=**");
        assertFalse(s.mayBeSelected("net/bytebuddy/ByteBuddy", APP, new byte[0]));
        assertFalse(s.mayBeSelected("dev/jetw/agent/core/Agent", APP, new byte[0]));
        assertFalse(s.mayBeSelected("java/util/HashMap", null, new byte[0]));
        assertTrue(of("include=java.util.HashMap,bootstrap=true").mayBeSelected("java/util/HashMap", null, new byte[0]));
        assertFalse(of("include=**,bootstrap=true").mayBeSelected("java/util/HashMap", null, new byte[0]), "a wildcard never takes the JDK");
    }

    @Test
    void theApiClassAlwaysBringsTheInstrumentationUp() {
        assertTrue(of("include=zzz.**").mayBeSelected(Selection.API_CLASS.replace('.', '/'), APP, new byte[0]));
    }

    @Test
    void aClassFileCarryingTracedIsSelectableWhateverItsName() throws IOException {
        SelectableClasses s = of("include=zzz.**");
        assertTrue(s.mayBeSelected(internal(Levels.class), APP, classFile(Levels.class)));
        assertFalse(s.mayBeSelected(internal(Tiny.class), APP, classFile(Tiny.class)));
    }

    @Test
    void anAnnotationRuleIsLookedForInTheClassFileToo() throws IOException {
        String timed = Timed.class.getName();
        assertFalse(of("include=zzz.**").mayBeSelected(internal(Annotated.class), APP, classFile(Annotated.class)));
        assertTrue(of("include=zzz.**,annotation=" + timed).mayBeSelected(internal(Annotated.class), APP, classFile(Annotated.class)));
    }

    @Test
    void byteSearchFindsANeedleAnywhereAndOnlyWhole() {
        byte[] hay = "xxLdev/jetw/api/Traced;".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertEquals(2, SelectableClasses.indexOf(hay, "Ldev/jetw/api/Traced;".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        assertEquals(-1, SelectableClasses.indexOf(hay, "Ldev/jetw/api/Traced;x".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        assertEquals(-1, SelectableClasses.indexOf(new byte[0], "L".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    }

    @Test
    void aClassLoadedBeforeTheAgentCountsWhenOnlyAnAnnotationCouldSelectIt() {
        assertTrue(of("include=zzz.**").mayBeSelected(Tiny.class), "its class file is not at hand: counted in");
        assertFalse(of("include=zzz.**").mayBeSelected(java.util.HashMap.class));
        assertFalse(of("include=zzz.**").mayBeSelected(int[].class));
    }

    private static String internal(Class<?> c) {
        return c.getName().replace('.', '/');
    }

    private static byte[] classFile(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream(c.getName().substring(c.getName().lastIndexOf('.') + 1) + ".class")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            for (int n; (n = in.read(buf)) > 0; ) {
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        }
    }
}
