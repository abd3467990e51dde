package dev.jetw.agent;

import java.io.File;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.security.CodeSource;

/**
 * The entry class named by the manifest: Premain-Class (-javaagent), Agent-Class (dynamic attach) and
 * Main-Class (the command-line tool). With {@link IsolatedClassLoader} it is all the application class
 * loader ever loads of the agent: everything else (the launcher in {@code dev.jetw.agent.launcher}, the
 * core, Byte Buddy, JNA...) is read from this same jar by the isolated loader, and nothing is extracted.
 *
 * <p>The order matters: this class locates its jar and builds the isolated loader; only then does the
 * launcher, inside that loader, append the jar to the bootstrap class loader's search (for the
 * {@code dev.jetw.bootstrap} classes at the jar's root) and call the core. After the append the boot
 * loader could find this class too, so it names no class of the agent but the loader, and both are
 * loaded by then.
 *
 * <p>There is one isolated loader per JVM, kept here for the JVM's life: status and detach must reach
 * the core instance that attach started, and a later attach reuses it. This class is loaded by the
 * application class loader (the agent jar is on its path), so a second {@code loadAgent} of the jar
 * finds this same class and its loader.
 *
 * <p>No entry point throws into the JVM: a failure prints one line {@code jetw: <what>: <why>} and the
 * agent stays inert while the application runs on.
 *
 * <p>{@code -javaagent:jetw-agent.jar=standby} stops here: premain only leaves {@link #STANDBY_PROPERTY} and returns,
 * before the isolated loader is built (no session, thread, transformer or JFR; docs/attach-ramp.md). Loading any Java
 * agent at start-up is what matters: on JDK 17 and older, HotSpot then records from the start what its compiled code
 * depends on, so that a later {@code jetw attach} retransforms without throwing all compiled code away.
 */
public final class AgentEntry {

    /** Starts the core in a target JVM; loaded by the isolated loader. */
    static final String LAUNCHER = "dev.jetw.agent.launcher.AgentLauncher";
    /** The command-line tool; loaded by the isolated loader. */
    static final String TOOL = "dev.jetw.agent.launcher.JetwCli";
    /** Where the attach tool reads why a {@code command=listen} load failed (the launcher sets it too). */
    static final String LOAD_ERROR_PROPERTY = "jetw.agent.loadError";

    /**
     * Set by a standby premain to the path of the jar it was loaded from ("true" when that is no jar file): a later
     * attach runs this jar's entry class, whatever copy the attach tool was started from. The core reads it (by this
     * name) to tell that the JVM was started so, {@code jetw list} shows it.
     */
    static final String STANDBY_PROPERTY = "jetw.agent.standby";
    /** The whole option string of a standby start (case and surrounding blanks aside; with anything else the core says why not). */
    static final String STANDBY = "standby";

    private static IsolatedClassLoader agentLoader;

    private AgentEntry() {
    }

    public static void premain(String options, Instrumentation inst) {
        if (isStandby(options)) {
            File jar = agentJar();
            System.setProperty(STANDBY_PROPERTY, jar == null ? "true" : jar.getPath()); // the jar a later attach runs
            return;
        }
        launch("premain", options, inst);
    }

    /** Whether the option string is exactly {@code standby}; {@code standby} with other options goes on to the core, which rejects it. */
    static boolean isStandby(String options) {
        return options != null && options.trim().equalsIgnoreCase(STANDBY);
    }

    public static void agentmain(String options, Instrumentation inst) {
        launch("agentmain", options, inst);
    }

    /** The launcher reports its own failures; this reports those before it runs (no jar, no launcher). */
    private static synchronized void launch(String entryPoint, String options, Instrumentation inst) {
        try {
            if (agentLoader == null) {
                File jar = agentJar();
                if (jar == null) {
                    fail(options, "agent jar", notLocated());
                    return;
                }
                agentLoader = IsolatedClassLoader.forAgent(jar);
            }
            Class.forName(LAUNCHER, true, agentLoader).getMethod("launch", String.class, String.class, Instrumentation.class)
                    .invoke(null, entryPoint, options, inst);
        } catch (InvocationTargetException e) {
            fail(options, "agent", describe(e.getCause()));
        } catch (Throwable t) {
            fail(options, "agent", describe(t));
        }
    }

    public static void main(String[] args) {
        int status;
        try {
            File jar = agentJar();
            if (jar == null) {
                System.err.println("jetw: agent jar: " + notLocated());
                status = 1;
            } else {
                IsolatedClassLoader loader = IsolatedClassLoader.forTool(jar);
                Thread.currentThread().setContextClassLoader(loader);
                Object result = Class.forName(TOOL, true, loader).getMethod("run", String[].class, PrintStream.class, PrintStream.class)
                        .invoke(null, args, System.out, System.err);
                status = (Integer) result;
            }
        } catch (InvocationTargetException e) {
            System.err.println("jetw: tool: " + describe(e.getCause()));
            status = 1;
        } catch (Throwable t) {
            System.err.println("jetw: tool: " + describe(t));
            status = 1;
        }
        System.out.flush();
        // Exit explicitly: the Attach API may leave non-daemon threads behind, and the status must reach the shell.
        System.exit(status);
    }

    /** The jar this class was loaded from, jetw-agent.jar itself, or null when it is no jar file. */
    static File agentJar() {
        try {
            CodeSource source = AgentEntry.class.getProtectionDomain().getCodeSource();
            URL location = source == null ? null : source.getLocation();
            File jar = location == null ? null : new File(location.toURI());
            return jar != null && jar.isFile() ? jar : null;
        } catch (Exception e) {
            return null;
        }
    }

    private static String notLocated() {
        CodeSource source = AgentEntry.class.getProtectionDomain().getCodeSource();
        String standby = System.getProperty(STANDBY_PROPERTY);
        return "cannot locate the jar the agent was loaded from (" + (source == null ? null : source.getLocation()) + "); "
                + (standby == null ? "run it as -javaagent:/path/to/jetw-agent.jar or java -jar jetw-agent.jar"
                        : "this JVM was started with -javaagent:...=standby from that jar, and an attach runs it: it must stay in place");
    }

    private static void fail(String options, String what, String why) {
        String line = "jetw: " + what + ": " + why;
        System.err.println(line);
        if (options != null && ("," + options.replace(" ", "") + ",").contains(",command=listen,")) {
            System.setProperty(LOAD_ERROR_PROPERTY, line);
        }
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        String name = t.getClass().getName();
        return message == null || message.isEmpty() ? name : name + ": " + message.replace('\n', ' ').replace('\r', ' ');
    }
}
