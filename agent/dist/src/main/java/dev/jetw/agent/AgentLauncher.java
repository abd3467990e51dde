package dev.jetw.agent;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;

/**
 * Starts the agent's core in a target JVM: extracts the embedded jars, appends the bootstrap jar to the
 * bootstrap class path, and calls {@code dev.jetw.agent.core.AgentMain} by reflection inside the
 * isolated class loader.
 *
 * <p>There is one isolated loader per JVM, kept for the JVM's life: status and detach must reach the
 * same core instance that attach started, and a later re-attach reuses it rather than loading a second
 * copy of Byte Buddy and JNA (JNA's native library cannot be loaded twice by one class loader chain).
 * This class is loaded by the application class loader (the agent jar is on its path), so a second
 * {@code loadAgent} of the same jar finds this same class and its state.
 */
final class AgentLauncher {

    static final String CORE_MAIN = "dev.jetw.agent.core.AgentMain";
    static final String MOF_SCHEMA = "dev.jetw.agent.core.MofSchema";
    static final String ETL_TOOL = "dev.jetw.analysis.cli.EtlTool";
    static final String SELFTEST = "dev.jetw.selftest.Selftest";

    /** The core's words for status/detach without an agent (dev.jetw.agent.core.AgentMain). */
    static final String NOT_ATTACHED = "no jetw agent is attached in this JVM";

    /** Set to the failure line when loading the agent for the attach tool ({@code command=listen}) failed. */
    static final String LOAD_ERROR_PROPERTY = "jetw.agent.loadError";

    private static IsolatedClassLoader agentLoader;

    private AgentLauncher() {
    }

    /**
     * Runs premain or agentmain of the core. Never throws: a failure prints one line on stderr and,
     * when the attach tool asked for a reply file, writes the same line there.
     */
    static synchronized void launch(String entryPoint, String options, Instrumentation inst) {
        ControlOptions control = ControlOptions.of(options);
        if (control.isListen()) {
            System.clearProperty(LOAD_ERROR_PROPERTY);
        }
        try {
            if (agentLoader == null && control.isSessionCommand()) {
                // Nothing to query or stop, and no reason to load anything into this JVM to say so.
                // The same failure line the core gives once it was loaded (after a detach), so the tool behaves alike.
                throw new JetwFailure(control.command, NOT_ATTACHED);
            }
            if (agentLoader == null) {
                agentLoader = loadAgent(inst);
            }
            invokeCore(agentLoader, entryPoint, options == null ? "" : options, inst);
            replyIfSilent(control);
        } catch (JetwFailure failure) {
            report(control, failure.line());
        } catch (Throwable t) {
            // Anything else (LinkageError, OutOfMemoryError...) must not reach the JVM either.
            report(control, JetwFailure.line("agent", JetwFailure.describe(t)));
        }
    }

    private static IsolatedClassLoader loadAgent(Instrumentation inst) throws JetwFailure {
        EmbeddedJars jars = EmbeddedJars.extractFrom(EmbeddedJars.agentJar());
        try {
            inst.appendToBootstrapClassLoaderSearch(new JarFile(jars.bootstrapJar()));
        } catch (IOException e) {
            throw new JetwFailure("bootstrap jar " + jars.bootstrapJar(), JetwFailure.describe(e), e);
        }
        return IsolatedClassLoader.over(jars.libraries());
    }

    /** A loader for the command-line tool: no Instrumentation, so the bootstrap jar joins the isolated loader. */
    static IsolatedClassLoader loaderForTool() throws JetwFailure {
        EmbeddedJars jars = EmbeddedJars.extractFrom(EmbeddedJars.agentJar());
        List<java.io.File> all = new ArrayList<>(jars.libraries());
        all.add(jars.bootstrapJar());
        return IsolatedClassLoader.over(all);
    }

    private static void invokeCore(ClassLoader loader, String entryPoint, String options, Instrumentation inst) throws JetwFailure {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        // Threads the core starts inherit this, so they never resolve names through the application's loader.
        thread.setContextClassLoader(loader);
        try {
            Method method = Class.forName(CORE_MAIN, true, loader).getMethod(entryPoint, String.class, Instrumentation.class);
            method.invoke(null, options, inst);
        } catch (InvocationTargetException e) {
            throw new JetwFailure("agent", JetwFailure.describe(e.getCause()), e.getCause());
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new JetwFailure("agent core " + CORE_MAIN, JetwFailure.describe(e), e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /**
     * The attach tool waits for a reply in {@code out}. The core writes one for every command; if it
     * wrote nothing (a plain attach), say whether the agent came up, from the property the core sets.
     */
    private static void replyIfSilent(ControlOptions control) {
        if (control.out == null) {
            return;
        }
        try {
            if (Files.exists(Paths.get(control.out)) && Files.size(Paths.get(control.out)) > 0) {
                return;
            }
        } catch (IOException e) {
            return;
        }
        if (control.isSessionCommand()) {
            writeReply(control.out, JetwFailure.line(control.command, "the agent wrote no reply (see the target JVM's error output)"));
        } else if ("true".equals(System.getProperty(AgentEntry.ACTIVE_PROPERTY))) {
            writeReply(control.out, "jetw agent active");
        } else {
            writeReply(control.out, JetwFailure.line("attach", "the agent did not start (see the target JVM's error output)"));
        }
    }

    private static void report(ControlOptions control, String line) {
        System.err.println(line);
        if (control.isListen()) {
            // The attach tool finds no control channel and reads why from here (it has no reply file).
            System.setProperty(LOAD_ERROR_PROPERTY, line);
        }
        if (control.out != null) {
            writeReply(control.out, line);
        }
    }

    /**
     * The rule of the core's reply files (dev.jetw.etw.TraceFiles, which this class loader cannot see):
     * replace the attach tool's empty file, else create a new one; never through a link, never over
     * a file with content or with several hard links. The tool's file is replaced by renaming a new
     * file over it, never opened: a link swapped in after the check is replaced, not written through.
     */
    private static void writeReply(String out, String line) {
        try {
            Path p = Paths.get(out);
            byte[] bytes = (line + System.lineSeparator()).getBytes(StandardCharsets.UTF_8);
            boolean toolsFile = Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && Files.size(p) == 0 && linkCount(p) == 1;
            if (!toolsFile) {
                Files.write(p, bytes, LinkOption.NOFOLLOW_LINKS, StandardOpenOption.CREATE_NEW);
                return;
            }
            Path temporary = p.resolveSibling("." + p.getFileName() + "." + System.nanoTime() + ".tmp");
            try {
                Files.write(temporary, bytes, LinkOption.NOFOLLOW_LINKS, StandardOpenOption.CREATE_NEW);
                Files.move(temporary, p, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(temporary);
            }
        } catch (Exception e) {
            System.err.println(JetwFailure.line("reply file " + out, JetwFailure.describe(e)));
        }
    }

    private static int linkCount(Path p) {
        try {
            return ((Number) Files.getAttribute(p, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).intValue();
        } catch (IOException | RuntimeException e) {
            return 1; // no link count on this file system
        }
    }
}
