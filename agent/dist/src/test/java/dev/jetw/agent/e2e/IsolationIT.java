package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.IsolationApp;
import dev.jetw.etw.EventType;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
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
        Path etl = temp.resolve("isolation.etl");
        String options = "include=" + IsolationApp.class.getName() + ",backend=portable,file=" + etl;

        ChildJvm child = ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=" + options), classPath, IsolationApp.class);

        assertEquals(0, child.waitForExit(), child.toString());
        String out = child.stdout();
        assertTrue(out.contains("bytebuddy-jar " + byteBuddyJar + "\n"), "the app's Byte Buddy, not the agent's:\n" + child);
        assertTrue(out.contains("jna-jar " + jnaJar + "\n"), "the app's JNA, not the agent's:\n" + child);
        assertTrue(out.contains("bytebuddy-copies 1\n") && out.contains("jna-copies 1\n"), "the agent's copies stay invisible:\n" + child);
        assertTrue(out.contains("agent-core-visible false\n"), child.toString());
        assertTrue(out.contains("made greetings from the app's byte buddy\n"), child.toString());
        assertTrue(out.contains("getpid matches\n"), child.toString());
        assertTrue(out.contains("traced 21\n"), child.toString());
        assertTrue(child.stderrLines().stream().noneMatch(l -> l.startsWith("jetw: cannot") || l.startsWith("jetw: agent")), child.toString());

        TraceFile trace = TraceFile.read(etl);
        assertEquals(1, trace.count(EventType.START, trace.methodId(IsolationApp.class.getName(), "traced")), "the agent traced the app too");
        trace.assertBalancedAndNested();
    }
}
