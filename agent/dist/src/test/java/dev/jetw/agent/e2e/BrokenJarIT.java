package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.AttachTargetApp;
import com.acme.app.CallTreeApp;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The entry code's own failures (here: an agent jar whose core is missing) never reach the JVM: one
 * line, an inert agent, the application runs on; the attach tool exits 1 with that same line.
 */
class BrokenJarIT {

    @TempDir
    Path temp;

    @Test
    void missingCoreIsOneLineAtStartup() throws Exception {
        Path broken = jarWithoutCore();
        ChildJvm child = ChildJvm.start(List.of("-javaagent:" + broken + "=include=com.acme.**"), ChildJvm.appClassPath(), CallTreeApp.class);

        assertEquals(0, child.waitForExit(), child.toString());
        assertTrue(child.stdout().contains("caught boom\nquiet 7\nresult 19 6\n"), child.toString());
        List<String> jetw = child.stderrLines().stream().filter(l -> l.startsWith("jetw")).toList();
        assertEquals(1, jetw.size(), child.toString());
        assertTrue(jetw.get(0).startsWith("jetw: agent core dev.jetw.agent.core.AgentMain: java.lang.ClassNotFoundException"), jetw.get(0));
        assertTrue(child.stderrLines().stream().noneMatch(l -> l.contains("Exception in thread") || l.contains("FATAL")), child.toString());
    }

    @Test
    void missingCoreFailsTheAttachToolWithTheSameLine() throws Exception {
        Path broken = jarWithoutCore();
        try (ChildJvm target = ChildJvm.start(List.of("-XX:+EnableDynamicAgentLoading"), ChildJvm.appClassPath(), AttachTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready"), "ready");
            ChildJvm.Result r = ChildJvm.run(List.of(ChildJvm.java().toString(), "-jar", broken.toString(), "attach", Long.toString(target.pid()),
                    "include=com.acme.**"));
            assertEquals(1, r.exit(), r.toString());
            List<String> lines = r.stderr().lines().toList();
            assertEquals(1, lines.size(), r.toString());
            assertTrue(lines.get(0).startsWith("jetw: agent core dev.jetw.agent.core.AgentMain: java.lang.ClassNotFoundException"), r.toString());
            target.awaitStderr(lines.get(0)::equals, "the same line in the target");

            int from = target.stdoutLineCount();
            target.send("work");
            target.awaitStdout(from, "done 385"::equals, "the application runs on");
            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());
        }
    }

    /** A copy of jetw-agent.jar without the core's classes. */
    private Path jarWithoutCore() throws Exception {
        Path broken = temp.resolve("jetw-agent-broken.jar");
        int dropped = 0;
        try (JarFile jar = new JarFile(ChildJvm.agentJar().toFile());
             JarOutputStream out = new JarOutputStream(Files.newOutputStream(broken), jar.getManifest())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                if (entry.getName().equals(JarFile.MANIFEST_NAME)) {
                    continue;
                }
                if (entry.getName().startsWith("META-INF/jetw/classes/dev/jetw/agent/core/")) {
                    dropped++;
                    continue;
                }
                out.putNextEntry(new JarEntry(entry.getName()));
                try (InputStream in = jar.getInputStream(entry)) {
                    in.transferTo(out);
                }
                out.closeEntry();
            }
        }
        assertTrue(dropped > 50, "the core's classes: " + dropped);
        return broken;
    }
}
