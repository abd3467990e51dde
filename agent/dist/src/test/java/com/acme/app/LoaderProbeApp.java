package com.acme.app;

import java.io.IOException;
import java.net.URL;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Runs under {@code -javaagent} and reports where the agent's code came from: the code source of a few
 * classes of the agent's class loader (found as the context loader of its "jetw-control" thread), who
 * defined the bootstrap classes the advice calls, whether a resource or a class planted by another user
 * ({@link #MARKER}, {@link #MARKER_CLASS}) is visible to the agent's loader or the boot loader, and
 * which jar files the JVM holds open.
 */
public final class LoaderProbeApp {

    /** The resource every jar the attacker plants carries. */
    public static final String MARKER = "PLANTED-BY-ANOTHER-USER";
    /** A class every jar the attacker plants carries, and no jar of the agent. */
    public static final String MARKER_CLASS = "planted.ByAnotherUser";

    static final String[] AGENT_CLASSES = {
        "dev.jetw.agent.core.AgentMain", "net.bytebuddy.ByteBuddy", "dev.jetw.etw.SessionController", "dev.jetw.etl.EtlFileWriter",
    };

    public static void main(String[] args) throws Exception {
        System.out.println("traced " + traced(41));
        ClassLoader agent = agentLoader();
        System.out.println("agent-loader " + (agent == null ? "none" : agent));
        if (agent != null) {
            for (String name : AGENT_CLASSES) {
                Class<?> type = Class.forName(name, false, agent);
                System.out.println("class " + name + " " + type.getProtectionDomain().getCodeSource().getLocation());
            }
        }
        Class<?> dispatcher = Class.forName("dev.jetw.bootstrap.Dispatcher");
        System.out.println("boot-defined " + (dispatcher.getClassLoader() == null));
        URL planted = agent == null ? null : agent.getResource(MARKER);
        System.out.println("planted-resource " + planted);
        System.out.println("planted-class-in-agent-loader " + (agent != null && Loaders.canLoad(MARKER_CLASS, agent)));
        System.out.println("planted-class-in-boot-loader " + Loaders.canLoad(MARKER_CLASS, null));
        // Every jar this JVM holds open (the boot loader's appended jar included), where /proc tells.
        Path fds = Paths.get("/proc/self/fd");
        if (Files.isDirectory(fds)) {
            try (DirectoryStream<Path> all = Files.newDirectoryStream(fds)) {
                for (Path fd : all) {
                    try {
                        Path target = Files.readSymbolicLink(fd);
                        if (target.toString().endsWith(".jar")) {
                            System.out.println("open-jar " + target);
                        }
                    } catch (IOException | UnsupportedOperationException gone) {
                        // closed meanwhile, or not a link
                    }
                }
            }
        }
    }

    static int traced(int n) {
        return n + 1;
    }

    /** The channel opens off premain's thread (AgentMain.premain): its thread may start after main did; waits up to 10 s. */
    private static ClassLoader agentLoader() throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        do {
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals("jetw-control")) {
                    return t.getContextClassLoader();
                }
            }
            Thread.sleep(10);
        } while (System.nanoTime() < deadline);
        return null;
    }
}
