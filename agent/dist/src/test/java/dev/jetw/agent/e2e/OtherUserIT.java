package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.acme.app.AttachTargetApp;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Another user's JVM (issue 27, item 9): a JVM run as nobody, the tool run as daemon (uid 1), both
 * through setpriv, which needs root. The tool says whose JVM it is and whom to run as, in one line,
 * at once, instead of the Attach API's "Operation not permitted" under "jetw: attach PID".
 */
class OtherUserIT {

    private static final String NOBODY = "65534";
    private static final String DAEMON = "1";

    @Test
    void statusOfAnotherUsersJvmSaysWhoseItIsAndWhomToRunAs() throws Exception {
        assumeTrue(Files.isExecutable(Paths.get("/usr/bin/setpriv")), "setpriv is needed");
        assumeTrue(Files.readAllLines(Paths.get("/proc/self/status")).stream().anyMatch(l -> l.matches("Uid:\\s+0\\s+0.*")),
                "only root can run a JVM and the tool as two other users");
        List<String> target = asUser(NOBODY, List.of(ChildJvm.java().toString(), "-XX:-UsePerfData", "-cp",
                String.join(java.io.File.pathSeparator, ChildJvm.appClassPath().stream().map(Path::toString).toList()),
                AttachTargetApp.class.getName()));
        Process jvm = new ProcessBuilder(target).redirectErrorStream(true).start();
        try {
            String ready = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assumeTrue(ready != null && ready.startsWith("ready"), "the JVM could not start as nobody (a class path it cannot read?): " + ready);
            String pid = Long.toString(jvm.pid());
            // Run as java -jar (no launcher): the line names that command, not ./jetw (UsageTextTest for the launcher).
            List<String> tool = asUser(DAEMON, List.of(ChildJvm.java().toString(), "-XX:-UsePerfData", "-jar",
                    ChildJvm.agentJar().toString(), "status", pid));
            long start = System.nanoTime();
            ChildJvm.Result r = ChildJvm.run(tool);
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(1, r.exit(), r.toString());
            assertEquals("jetw: status " + pid + ": the JVM runs as user nobody (uid 65534), this tool as user daemon (uid 1);"
                    + " only the JVM's own user and root may attach to it: run java -jar jetw-agent.jar status " + pid + " as nobody"
                    + " (sudo -u nobody java -jar jetw-agent.jar status " + pid + ") or as root\n", r.stderr());
            assertTrue(jvm.isAlive(), "the target runs on");
            System.out.println("status of nobody's JVM run as daemon: " + millis + " ms");
        } finally {
            jvm.destroy();
            jvm.waitFor();
        }
    }

    private static List<String> asUser(String uid, List<String> command) {
        List<String> all = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups"));
        all.addAll(command);
        return all;
    }
}
