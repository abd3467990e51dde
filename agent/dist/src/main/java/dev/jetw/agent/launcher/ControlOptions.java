package dev.jetw.agent.launcher;

/**
 * The two option keys the entry code itself must understand, read from the agent's option string
 * without validating anything else (the core owns every other option and all validation):
 * {@code command} (status, detach; absent or "attach" for a plain attach or -javaagent) and {@code out} (the file the
 * attach tool reads the agent's reply from).
 */
final class ControlOptions {

    final String command;
    final String out;

    private ControlOptions(String command, String out) {
        this.command = command;
        this.out = out;
    }

    static ControlOptions of(String options) {
        String command = null;
        String out = null;
        if (options != null) {
            for (String part : options.split(",")) {
                int eq = part.indexOf('=');
                if (eq < 0) {
                    continue;
                }
                String key = part.substring(0, eq).trim();
                String value = part.substring(eq + 1).trim();
                if (key.equals("command")) {
                    command = value;
                } else if (key.equals("out")) {
                    out = value;
                }
            }
        }
        return new ControlOptions(command, out);
    }

    /** The attach tool's load: open the control channel only. */
    boolean isListen() {
        return "listen".equals(command);
    }

    /** A command that queries or stops an existing session, rather than starting one. */
    boolean isSessionCommand() {
        return "status".equals(command) || "detach".equals(command) || "dump".equals(command);
    }
}
