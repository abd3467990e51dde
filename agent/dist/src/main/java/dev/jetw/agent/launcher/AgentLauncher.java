package dev.jetw.agent.launcher;

import java.io.File;
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
import java.util.jar.JarFile;

/**
 * Starts the agent's core in a target JVM, inside the isolated class loader that
 * {@code dev.jetw.agent.AgentEntry} built over the agent jar: appends the agent jar to the bootstrap class
 * loader's search (once per JVM; the {@code dev.jetw.bootstrap} classes the advice calls sit at its root),
 * then calls {@code dev.jetw.agent.core.AgentMain} by reflection.
 *
 * <p>Its state lives as long as the isolated loader, which {@code AgentEntry} keeps for the JVM's life:
 * status and detach reach the same core instance that attach started, and a later re-attach reuses it
 * rather than loading a second copy of Byte Buddy and JNA (JNA's native library cannot be loaded twice
 * by one class loader chain).
 */
public final class AgentLauncher {

    static final String CORE_MAIN = "dev.jetw.agent.core.AgentMain";
    static final String MOF_SCHEMA = "dev.jetw.agent.core.MofSchema";
    static final String ETL_TOOL = "dev.jetw.analysis.cli.EtlTool";
    static final String SELFTEST = "dev.jetw.selftest.Selftest";

    /** System property the core sets to "true" while a session is active ("./jetw list" shows it). */
    static final String ACTIVE_PROPERTY = "jetw.agent.active";

    /** Set by a standby premain, to its jar's path (dev.jetw.agent.AgentEntry, which this loader does not name). */
    static final String STANDBY_PROPERTY = "jetw.agent.standby";

    /** The core's words for status/detach without an agent (dev.jetw.agent.core.AgentMain). */
    static final String NOT_ATTACHED = "no jetw agent is attached in this JVM";

    /** Set to the failure line when loading the agent for the attach tool ({@code command=listen}) failed. */
    static final String LOAD_ERROR_PROPERTY = "jetw.agent.loadError";

    private static boolean bootstrapAppended;
    private static boolean coreStarted;

    private AgentLauncher() {
    }

    /**
     * Runs premain or agentmain of the core. Never throws: a failure prints one line on stderr and,
     * when the attach tool asked for a reply file, writes the same line there. Called by
     * {@code AgentEntry} with its lock held.
     */
    public static synchronized void launch(String entryPoint, String options, Instrumentation inst) {
        // The option tokenizer is a bootstrap class: the boot class path must hold this jar before the
        // options are read (the agent's isolated loader never serves dev/jetw/bootstrap itself).
        try {
            appendBootstrapOnce(inst);
        } catch (JetwFailure failure) {
            System.err.println(failure.line());
            return;
        } catch (Throwable t) {
            System.err.println(JetwFailure.line("agent", JetwFailure.describe(t)));
            return;
        }
        ControlOptions control = ControlOptions.of(options);
        if (control.isListen()) {
            System.clearProperty(LOAD_ERROR_PROPERTY);
        }
        try {
            if (!coreStarted && control.isSessionCommand()) {
                // Nothing to query or stop, and no reason to load the core into this JVM to say so.
                // The same failure line the core gives once it was loaded (after a detach), so the tool behaves alike.
                throw new JetwFailure(control.command, NOT_ATTACHED);
            }
            coreStarted = true;
            invokeCore(AgentLauncher.class.getClassLoader(), entryPoint, options == null ? "" : options, inst);
            replyIfSilent(control);
        } catch (JetwFailure failure) {
            report(control, failure.line());
        } catch (Throwable t) {
            // Anything else (LinkageError, OutOfMemoryError...) must not reach the JVM either.
            report(control, JetwFailure.line("agent", JetwFailure.describe(t)));
        }
    }

    /**
     * The bootstrap classes come from the agent jar itself, the file the JVM was told to load: only
     * whoever can write that file (or its folder) decides what runs, as for any jar on a class path.
     */
    private static void appendBootstrapOnce(Instrumentation inst) throws JetwFailure {
        if (bootstrapAppended) {
            return;
        }
        File agentJar = AgentJar.location();
        try (JarFile jar = new JarFile(agentJar)) {
            inst.appendToBootstrapClassLoaderSearch(jar);
        } catch (IOException e) {
            throw new JetwFailure("bootstrap classes in " + agentJar, JetwFailure.describe(e), e);
        }
        bootstrapAppended = true;
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
        } else if ("true".equals(System.getProperty(ACTIVE_PROPERTY))) {
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
