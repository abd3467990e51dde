package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.IsolationApp;
import dev.jetw.etl.EventType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application bundling Byte Buddy and JNA in versions other than the agent's runs under the agent:
 * it gets its own versions, both work, and the agent traces it at the same time.
 */
class IsolationIT {

    @TempDir
    Path temp;

    @Test
    void applicationsOwnByteBuddyAndJnaKeepWorkingUnderTheAgent() throws Exception {
        String byteBuddyJar = "byte-buddy-" + System.getProperty("jetw.isolation.bytebuddy.version") + ".jar";
        String jnaJar = "jna-" + System.getProperty("jetw.isolation.jna.version") + ".jar";
        Path libs = Paths.get(System.getProperty("jetw.isolation.libs"));
        List<Path> classPath = new ArrayList<>(ChildJvm.appClassPath());
        classPath.add(libs.resolve(byteBuddyJar));
        classPath.add(libs.resolve(jnaJar));
        classPath.add(tripwireCore());
        Path etl = temp.resolve("isolation.etl");
        String options = "include=" + IsolationApp.class.getName() + ",backend=portable,file=" + etl;

        ChildJvm child = ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=" + options), classPath, IsolationApp.class);

        assertEquals(0, child.waitForExit(), child.toString());
        String out = child.stdout();
        assertTrue(out.contains("bytebuddy-jar " + byteBuddyJar + "\n"), "the app's Byte Buddy, not the agent's:\n" + child);
        assertTrue(out.contains("jna-jar " + jnaJar + "\n"), "the app's JNA, not the agent's:\n" + child);
        assertTrue(!out.contains("TRIPWIRE"), "the agent must not resolve anything through the application's class path:\n" + child);
        assertTrue(out.contains("bytebuddy-copies 1\n") && out.contains("jna-copies 1\n"), "the agent's copies stay invisible:\n" + child);
        assertTrue(out.contains("agent-libraries-visible false\n"), child.toString());
        assertTrue(out.contains("made greetings from the app's byte buddy\n"), child.toString());
        assertTrue(out.contains("getpid matches\n"), child.toString());
        assertTrue(out.contains("traced 21\n"), child.toString());
        assertTrue(child.stderrLines().stream().noneMatch(l -> l.startsWith("jetw: cannot") || l.startsWith("jetw: agent")), child.toString());

        TraceFile trace = TraceFile.read(etl);
        assertEquals(1, trace.count(EventType.START, trace.methodId(IsolationApp.class.getName(), "traced")), "the agent traced the app too");
        trace.assertBalancedAndNested();
    }

    /**
     * A fake dev.jetw.agent.core.AgentMain on the application's class path. The isolated loader must
     * never look there (its parent is the platform loader); if it did, parent-first delegation would
     * run this instead of the real core, and it says so.
     */
    private Path tripwireCore() throws Exception {
        Path src = temp.resolve("tripwire-src/dev/jetw/agent/core/AgentMain.java");
        Files.createDirectories(src.getParent());
        String report = "{ System.out.println(\"TRIPWIRE: the agent loaded its core from the application class path\"); }";
        Files.writeString(src, "package dev.jetw.agent.core;\n"
                + "public final class AgentMain {\n"
                + "  public static void premain(String o, java.lang.instrument.Instrumentation i) " + report + "\n"
                + "  public static void agentmain(String o, java.lang.instrument.Instrumentation i) " + report + "\n"
                + "}\n");
        Path classes = temp.resolve("tripwire");
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "8", "-nowarn", "-d", classes.toString(), src.toString());
        assertEquals(0, rc, "compiling the tripwire");
        return classes;
    }
}
