package dev.jetw.agent.launcher;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The JDK's Attach API ({@code com.sun.tools.attach.VirtualMachine}), reached by reflection so the jar
 * needs no compile-time dependency on it and runs on JDK 8 too: there it lives in
 * {@code $JAVA_HOME/lib/tools.jar} (java.home is the jre/ folder, hence {@code java.home/../lib}), on
 * JDK 9+ in the jdk.attach module. A JRE has neither; the tool then says so. This class is loaded by the
 * isolated class loader, whose parent is the platform loader; on JDK 9+ the platform loader hands the
 * packages of jdk.attach to the application class loader that defines them, so the plain
 * {@code Class.forName} finds them.
 */
final class AttachApi {

    /** A JVM on this host as VirtualMachine.list() reports it. */
    static final class Jvm {
        final String pid;
        final String displayName;

        Jvm(String pid, String displayName) {
            this.pid = pid;
            this.displayName = displayName;
        }
    }

    private final Class<?> virtualMachine;
    private final Class<?> descriptor;

    private AttachApi(Class<?> virtualMachine) throws ClassNotFoundException {
        this.virtualMachine = virtualMachine;
        this.descriptor = Class.forName("com.sun.tools.attach.VirtualMachineDescriptor", true, virtualMachine.getClassLoader());
    }

    static AttachApi load() throws JetwFailure {
        try {
            return new AttachApi(Class.forName("com.sun.tools.attach.VirtualMachine"));
        } catch (ClassNotFoundException onModularJdk) {
            File toolsJar = new File(System.getProperty("java.home"), ".." + File.separator + "lib" + File.separator + "tools.jar");
            if (!toolsJar.isFile()) {
                throw new JetwFailure("attach", "the JDK's Attach API is not available in " + System.getProperty("java.home")
                        + " (run the tool with a JDK, not a JRE; JDK 8 needs " + toolsJar + ")");
            }
            try {
                URLClassLoader tools = new URLClassLoader(new URL[] {toolsJar.toURI().toURL()}, AttachApi.class.getClassLoader());
                return new AttachApi(Class.forName("com.sun.tools.attach.VirtualMachine", true, tools));
            } catch (Exception e) {
                throw new JetwFailure("attach", "cannot load the Attach API from " + toolsJar + ": " + JetwFailure.describe(e), e);
            }
        }
    }

    /** Attaches to {@code pid}, loads {@code agentJar} with {@code options}, and detaches the tool again. */
    void loadAgent(String pid, File agentJar, String options) throws JetwFailure {
        Object vm = attach(pid);
        try {
            call(vm, "loadAgent", new Class<?>[] {String.class, String.class}, agentJar.getAbsolutePath(), options);
        } catch (Exception e) {
            throw new JetwFailure("attach " + pid, "loading the agent failed: " + JetwFailure.describe(e), e);
        } finally {
            detachQuietly(vm);
        }
    }

    /** The target's system properties, or null when it cannot be attached to. */
    Properties systemProperties(String pid) {
        try {
            return systemPropertiesOf(pid);
        } catch (JetwFailure e) {
            return null;
        }
    }

    /** The target's system properties (a short attach, as jcmd VM.system_properties; nothing is loaded into it). */
    Properties systemPropertiesOf(String pid) throws JetwFailure {
        Object vm = attach(pid);
        try {
            return (Properties) call(vm, "getSystemProperties", new Class<?>[0]);
        } catch (Exception e) {
            throw new JetwFailure("attach " + pid, "reading the system properties failed: " + JetwFailure.describe(e), e);
        } finally {
            detachQuietly(vm);
        }
    }

    List<Jvm> list() throws JetwFailure {
        try {
            List<?> descriptors = (List<?>) virtualMachine.getMethod("list").invoke(null);
            List<Jvm> jvms = new ArrayList<>();
            for (Object d : descriptors) {
                jvms.add(new Jvm((String) descriptor.getMethod("id").invoke(d), (String) descriptor.getMethod("displayName").invoke(d)));
            }
            return jvms;
        } catch (Exception e) {
            throw new JetwFailure("list", JetwFailure.describe(unwrap(e)), e);
        }
    }

    private Object attach(String pid) throws JetwFailure {
        if (!catchesQuit(pid)) {
            throw new JetwFailure("attach " + pid, "the process does not handle SIGQUIT (a JVM still starting, one run with -Xrs, or "
                    + "no JVM), and attaching would kill it; try again once it runs");
        }
        try {
            return virtualMachine.getMethod("attach", String.class).invoke(null, pid);
        } catch (Exception e) {
            throw new JetwFailure("attach " + pid, JetwFailure.describe(unwrap(e)), e);
        }
    }

    /**
     * HotSpot on Linux starts its attach listener when it receives SIGQUIT, and the Attach API of older
     * JDKs (17 included) sends it without checking. A JVM that neither catches nor ignores SIGQUIT (in
     * early start-up, before its handlers exist, or run with -Xrs) dies of it, and so would a process
     * that is no JVM. /proc/PID/status tells (SigCgt / SigIgn masks, bit 2 = signal 3). Where there is
     * no /proc, nothing can be checked and the Attach API goes ahead.
     */
    static boolean catchesQuit(String pid) {
        java.nio.file.Path status = java.nio.file.Paths.get("/proc", pid, "status");
        try {
            return !java.nio.file.Files.isReadable(status)
                    || quitIsHandled(java.nio.file.Files.readAllLines(status, java.nio.charset.StandardCharsets.ISO_8859_1));
        } catch (java.io.IOException | RuntimeException e) {
            return true; // gone or unusual: let the Attach API report what it finds
        }
    }

    /** True when the SigCgt or SigIgn mask of a /proc status text has SIGQUIT, or it has neither mask. */
    static boolean quitIsHandled(List<String> statusLines) {
        boolean sawMask = false;
        for (String line : statusLines) {
            if (line.startsWith("SigCgt:") || line.startsWith("SigIgn:")) {
                sawMask = true;
                long mask = Long.parseUnsignedLong(line.substring(7).trim(), 16);
                if ((mask & (1L << 2)) != 0) {
                    return true;
                }
            }
        }
        return !sawMask;
    }

    private Object call(Object vm, String name, Class<?>[] types, Object... args) throws Exception {
        Method method = virtualMachine.getMethod(name, types);
        try {
            return method.invoke(vm, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw cause instanceof Exception ? (Exception) cause : e;
        }
    }

    private void detachQuietly(Object vm) {
        try {
            virtualMachine.getMethod("detach").invoke(vm);
        } catch (Exception ignored) {
            // The tool is done with this JVM either way.
        }
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof InvocationTargetException && t.getCause() != null ? t.getCause() : t;
    }
}
