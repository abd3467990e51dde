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

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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
        assertTrue(s.mayBeSelected("com/acme/shop/Cart", APP, pool()));
        assertFalse(s.mayBeSelected("org/other/Cart", APP, pool()));
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
    void aClassFileThatCannotBeWalkedCountsAsSelectable() throws IOException {
        byte[] cut = java.util.Arrays.copyOf(classFile(Tiny.class), 40);
        assertTrue(of("include=zzz.**").mayBeSelected(internal(Tiny.class), APP, cut), "the instrumentation decides");
    }

    @Test
    void onlyAWholeUtf8ConstantNamesTheAnnotation() {
        SelectableClasses s = of("include=zzz.**");
        assertFalse(s.mayBeSelected("a/B", APP, pool(utf8("see Ldev/jetw/api/Traced; here"))), "inside a longer string");
        assertTrue(s.mayBeSelected("a/B", APP, pool(utf8("Ldev/jetw/api/Traced;"))));
        // A Long takes two slots: the walk must count them, or it stops one entry early and misses the last.
        assertTrue(s.mayBeSelected("a/B", APP, pool(new byte[] {5, 0, 0, 0, 0, 0, 0, 0, 1}, utf8("Ldev/jetw/api/Traced;"))));
    }

    @Test
    void aClassLoadedBeforeTheAgentCountsWhenOnlyAnAnnotationCouldSelectIt() {
        assertTrue(of("include=zzz.**").mayBeSelected(Tiny.class), "its class file is not at hand: counted in");
        assertFalse(of("include=zzz.**").mayBeSelected(java.util.HashMap.class));
        assertFalse(of("include=zzz.**").mayBeSelected(int[].class));
    }

    @Test
    void aLoadedClassWhoseClassFileItsLoaderDoesNotServeIsToldByItsAnnotations() throws Exception {
        Class<?> annotated = definedFromBytes(Annotated.class);
        Class<?> tiny = definedFromBytes(Tiny.class);
        assertNull(LoadedClassFiles.read(annotated), "its loader does not serve its class file");

        SelectableClasses timed = of("include=zzz.**,annotation=" + Timed.class.getName());
        assertTrue(timed.mayBeRetransformed(annotated), "a method carries the selecting annotation");
        assertFalse(timed.mayBeRetransformed(tiny), "none of its members does");
        assertFalse(of("include=zzz.**").mayBeRetransformed(annotated), "not an annotation the options select");
    }

    /** {@code type} defined again from its bytes by a loader that serves no class file (as a class made at run time). */
    private static Class<?> definedFromBytes(Class<?> type) throws IOException, ClassNotFoundException {
        byte[] bytes = classFile(type);
        return new ClassLoader(APP) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (!name.equals(type.getName())) {
                    return super.loadClass(name, resolve);
                }
                synchronized (getClassLoadingLock(name)) {
                    Class<?> c = findLoadedClass(name);
                    return c != null ? c : defineClass(name, bytes, 0, bytes.length);
                }
            }

            @Override
            public java.net.URL getResource(String name) {
                return null;
            }

            @Override
            public InputStream getResourceAsStream(String name) {
                return null;
            }
        }.loadClass(type.getName());
    }

    /** The start of a class file: magic, version, and a constant pool of these entries (Long and Double counted twice). */
    private static byte[] pool(byte[]... entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0xCA); out.write(0xFE); out.write(0xBA); out.write(0xBE);
        out.write(0); out.write(0); out.write(0); out.write(52);
        int slots = 1;
        for (byte[] e : entries) {
            slots += e[0] == 5 || e[0] == 6 ? 2 : 1;
        }
        out.write(slots >> 8); out.write(slots);
        for (byte[] e : entries) {
            out.write(e, 0, e.length);
        }
        return out.toByteArray();
    }

    private static byte[] utf8(String s) {
        byte[] text = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] e = new byte[3 + text.length];
        e[0] = 1;
        e[1] = (byte) (text.length >> 8);
        e[2] = (byte) text.length;
        System.arraycopy(text, 0, e, 3, text.length);
        return e;
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
