package dev.jetw.agent.launcher;

import java.io.File;
import java.net.URL;
import java.security.CodeSource;

/**
 * The agent jar's path, as the isolated class loader recorded it in the code source of every class it
 * defines (it reads them all from that one jar).
 */
final class AgentJar {

    private AgentJar() {
    }

    static File location() throws JetwFailure {
        URL location = null;
        try {
            CodeSource source = AgentJar.class.getProtectionDomain().getCodeSource();
            location = source == null ? null : source.getLocation();
            File jar = new File(location.toURI());
            if (jar.isFile()) {
                return jar;
            }
        } catch (Exception e) {
            // Falls through to the failure below, which names what we found.
        }
        throw new JetwFailure("agent jar", "cannot locate the jar the agent was loaded from (" + location
                + "); run it as -javaagent:/path/to/jetw-agent.jar or java -jar jetw-agent.jar");
    }
}
